import { type ComponentProps, lazy, type ReactNode, Suspense, useState } from "react";
import { createBrowserRouter, Outlet } from "react-router";
import { AppErrorPage } from "../components/AppErrorPage";
import { PageLoader } from "../components/PageLoader";
import { LoginPage } from "../features/auth/LoginPage";
import { textsReady } from "../i18n";
import { useSessionState } from "../session/store";
import { RequireAuth } from "./guards";
import { SessionTimers } from "./SessionTimers";
import { homeScreen, shellScreen } from "./screens";
import { useUpdateWaiting } from "./update-state";

// Everything behind the login loads on demand, the shell (menus, icons) too: the login page
// stays small (issue 13: e2e/tests/bundle.spec.ts).
// The shell shows once the language's texts behind the login are there too (i18n/index.ts).
const Shell = shellScreen.Component;
const RequireRole = lazy(() => import("./RequireRole"));
const LockoutDialog = lazy(() => import("./LockoutDialog"));
// Loaded once a new version waits (app/service-worker.ts).
const UpdatePrompt = lazy(() => import("./UpdatePrompt"));
const NotFoundPage = lazy(() => import("../components/NotFoundPage").then((m) => ({ default: m.NotFoundPage })));
const HomePage = homeScreen.Component;
const ProfilePage = lazy(() => import("../features/profile/ProfilePage"));
const AccountPage = lazy(() => import("../features/account/AccountPage"));
const TopicPage = lazy(() => import("../features/learning/TopicPage"));
const TrainingPage = lazy(() => import("../features/learning/TrainingPage"));
const QuizPage = lazy(() => import("../features/learning/QuizPage"));
const UsersPage = lazy(() => import("../features/users/UsersPage"));
const AuditPage = lazy(() => import("../features/audit/AuditPage"));
const EvidencePage = lazy(() => import("../features/evidence/EvidencePage"));
const EditUserPage = lazy(() => import("../features/users/EditUserPage"));
const ProgressPage = lazy(() => import("../features/progress/ProgressPage"));
const HelpRequestsPage = lazy(() => import("../features/help/HelpRequestsPage"));
const HelpRequestPage = lazy(() => import("../features/help/HelpRequestPage"));
const TutorialPage = lazy(() => import("../features/help/TutorialPage"));
const MyQuestionsPage = lazy(() => import("../features/help/MyQuestionsPage"));
const CalendarPage = lazy(() => import("../features/calendar/CalendarPage"));
const PartnerCoursesPage = lazy(() => import("../features/partner-courses/PartnerCoursesPage"));
const WikiHomePage = lazy(() => import("../features/wiki/WikiHomePage"));
const WikiTopicPage = lazy(() => import("../features/wiki/WikiTopicPage"));
const AuthoringPage = lazy(() => import("../features/authoring/AuthoringPage"));
const QuestionnaireEditorPage = lazy(() => import("../features/authoring/QuestionnaireEditorPage"));
const WikiPageScreen = lazy(() => import("../features/wiki/WikiPageScreen"));
// Its texts are the app's (behind the login): shown once they are there.
const OfflineCertificatesPage = lazy(() =>
  Promise.all([import("../features/profile/OfflineCertificatesPage"), textsReady()]).then(([m]) => m),
);
const ThemeGalleryPage = lazy(() => Promise.all([import("../theme/ThemeGalleryPage"), textsReady()]).then(([m]) => m));

const role = (route: ComponentProps<typeof RequireRole>["route"], element: ReactNode) => (
  <RequireRole route={route}>{element}</RequireRole>
);

function Root() {
  // The lockout dialog loads when the inactivity limit first ends a session (a dialog is not
  // the login's code), and then stays for its closing transition.
  const { lockedOut } = useSessionState();
  const updateWaiting = useUpdateWaiting();
  const [lockoutLoaded, setLockoutLoaded] = useState(lockedOut);
  if (lockedOut && !lockoutLoaded) setLockoutLoaded(true);
  return (
    <>
      <SessionTimers />
      {updateWaiting && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
      {lockoutLoaded && (
        <Suspense fallback={null}>
          <LockoutDialog />
        </Suspense>
      )}
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    // A chunk that no longer exists after an update, or any other failure: a reload, not a blank page.
    errorElement: <AppErrorPage />,
    children: [
      { path: "/login", element: <LoginPage /> },
      {
        // "My certificates" kept on this device, without a session, while offline (issue 30).
        path: "/offline/certificates",
        element: (
          <Suspense fallback={<PageLoader />}>
            <OfflineCertificatesPage />
          </Suspense>
        ),
      },
      {
        // Every component variant in the current theme, for the accessibility test of the themes.
        path: "/theme-gallery",
        element: (
          <Suspense fallback={<PageLoader />}>
            <ThemeGalleryPage />
          </Suspense>
        ),
      },
      {
        element: (
          <RequireAuth>
            <Suspense fallback={<PageLoader />}>
              <Shell />
            </Suspense>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <HomePage /> },
          { path: "profile", element: <ProfilePage /> },
          { path: "account", element: <AccountPage /> },
          { path: "topic/:topicId", element: role("topic", <TopicPage />) },
          { path: "topic/:topicId/training/:trainingId", element: role("topic", <TrainingPage />) },
          {
            path: "topic/:topicId/training/:trainingId/questionnaire/:questionnaireId",
            element: role("topic", <QuizPage />),
          },
          { path: "edituser", element: role("editUser", <EditUserPage />) },
          { path: "edituser/:userId", element: role("editUser", <EditUserPage key="edit" />) },
          { path: "users", element: role("users", <UsersPage />) },
          { path: "progress", element: role("progress", <ProgressPage />) },
          { path: "audit", element: role("audit", <AuditPage />) },
          { path: "evidence", element: role("evidence", <EvidencePage />) },
          { path: "calendar", element: role("calendar", <CalendarPage />) },
          { path: "helprequests", element: role("helpRequests", <HelpRequestsPage />) },
          { path: "helprequests/:id", element: role("helpRequests", <HelpRequestPage />) },
          { path: "partner-courses", element: role("partnerCourses", <PartnerCoursesPage />) },
          { path: "help", element: role("help", <TutorialPage />) },
          { path: "my-questions", element: role("myQuestions", <MyQuestionsPage />) },
          { path: "authoring", element: role("authoring", <AuthoringPage />) },
          { path: "authoring/questionnaire/:id", element: role("authoring", <QuestionnaireEditorPage key="editor" />) },
          { path: "wiki", element: role("wiki", <WikiHomePage />) },
          { path: "wiki/:topic", element: role("wiki", <WikiTopicPage />) },
          { path: "wiki/:topic/:subtopic", element: role("wiki", <WikiPageScreen />) },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
