import type { AnswerResult, Question } from "@carecampus/contract";
import { useCallback, useEffect, useReducer, useRef } from "react";

/**
 * The quiz's states (spec §4): intro (independence confirmation) → question → answer sent →
 * feedback pop-up → explanation → next question, or the result screen when a round finished.
 */
export type QuizPhase = "intro" | "question" | "sending" | "feedback" | "explanation" | "result";

/** What the quiz needs of an answer's result (the learner's AnswerResult, or the editor preview's own). */
export type QuizResult = Pick<AnswerResult, "is_correct" | "finished">;

export interface QuizState<R extends QuizResult = AnswerResult> {
  phase: QuizPhase;
  confirmed: boolean;
  selected: number[];
  /** The question that was answered, shown again with its explanation. */
  asked: Question | null;
  result: R | null;
  /** The pop-up of the answer just given (image and duration). */
  popup: { src: string | undefined; right: boolean } | null;
}

export type QuizAction<R extends QuizResult = AnswerResult> =
  | { type: "confirm"; confirmed: boolean }
  | { type: "start" }
  | { type: "select"; ids: number[] }
  | { type: "send" }
  | { type: "sendFailed" }
  | { type: "answered"; question: Question; result: R; popup: QuizState["popup"] }
  | { type: "popupDone" }
  | { type: "goOn" }
  | { type: "nextRound" };

export const initialQuizState: QuizState<never> = {
  phase: "intro",
  confirmed: false,
  selected: [],
  asked: null,
  result: null,
  popup: null,
};

/** Pure transitions: every action that does not fit the current phase leaves the state as it is. */
export function quizReducer<R extends QuizResult = AnswerResult>(
  state: QuizState<R>,
  action: QuizAction<R>,
): QuizState<R> {
  switch (action.type) {
    case "confirm":
      return state.phase === "intro" ? { ...state, confirmed: action.confirmed } : state;
    case "start":
      return state.phase === "intro" && state.confirmed ? { ...state, phase: "question" } : state;
    case "select":
      return state.phase === "question" ? { ...state, selected: action.ids } : state;
    case "send":
      return state.phase === "question" && state.selected.length > 0 ? { ...state, phase: "sending" } : state;
    case "sendFailed":
      return state.phase === "sending" ? { ...state, phase: "question" } : state;
    case "answered":
      return state.phase === "sending"
        ? { ...state, phase: "feedback", asked: action.question, result: action.result, popup: action.popup }
        : state;
    case "popupDone":
      return state.phase === "feedback" ? { ...state, phase: "explanation", popup: null } : state;
    case "goOn":
      if (state.phase !== "explanation") return state;
      if (state.result?.finished) return { ...state, phase: "result" };
      return { ...state, phase: "question", selected: [], result: null };
    case "nextRound":
      return state.phase === "result" ? { ...state, phase: "question", selected: [], result: null } : state;
  }
}

export interface QuizFeedback {
  src: string | undefined;
  /** How long the pop-up stays (spec §9: 1800 ms right, 2800 ms wrong). */
  ms: number;
}

export interface UseQuizOptions<R extends QuizResult = AnswerResult> {
  /** Sends the chosen answers; rejects on failure (the client has shown the error). */
  sendAnswer: (question: Question, answers: number[]) => Promise<R>;
  /** The pop-up for a right or wrong answer. */
  feedback: (right: boolean) => QuizFeedback;
  /** After every answer: counts elsewhere changed (and fireworks on a right one). */
  onAnswered?: (result: R) => void;
  /** A new question is wanted (after 'next question' or a new round). */
  loadNext: () => void;
}

export interface Quiz<R extends QuizResult = AnswerResult> extends QuizState<R> {
  /** The continue button is disabled until an answer is chosen, and while an answer is sent or shown. */
  canSend: boolean;
  confirm(confirmed: boolean): void;
  start(): void;
  select(ids: number[]): void;
  /** Sends the chosen answers to `question`, the one on screen. */
  send(question: Question): Promise<void>;
  goOn(): void;
  nextRound(): void;
}

/** The quiz's state and its transitions, apart from how they look. */
export function useQuiz<R extends QuizResult = AnswerResult>(options: UseQuizOptions<R>): Quiz<R> {
  const [state, dispatch] = useReducer(quizReducer<R>, initialQuizState);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => () => clearTimeout(timer.current), []);

  const send = useCallback(async (question: Question) => {
    const { sendAnswer, feedback, onAnswered } = latest.current;
    const current = stateRef.current;
    if (current.phase !== "question" || current.selected.length === 0) return;
    dispatch({ type: "send" });
    // The phase changes with the next render; a second press before it must not send twice.
    stateRef.current = { ...current, phase: "sending" };
    let result: R;
    try {
      result = await sendAnswer(question, current.selected);
    } catch {
      dispatch({ type: "sendFailed" });
      return;
    }
    const shown = feedback(result.is_correct);
    dispatch({ type: "answered", question, result, popup: { src: shown.src, right: result.is_correct } });
    onAnswered?.(result);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => dispatch({ type: "popupDone" }), shown.ms);
  }, []);

  const goOn = useCallback(() => {
    const finished = stateRef.current.result?.finished;
    dispatch({ type: "goOn" });
    if (!finished && stateRef.current.phase === "explanation") latest.current.loadNext();
  }, []);

  const nextRound = useCallback(() => {
    if (stateRef.current.phase !== "result") return;
    dispatch({ type: "nextRound" });
    latest.current.loadNext();
  }, []);

  return {
    ...state,
    canSend: state.phase === "question" && state.selected.length > 0,
    confirm: useCallback((confirmed: boolean) => dispatch({ type: "confirm", confirmed }), []),
    start: useCallback(() => dispatch({ type: "start" }), []),
    select: useCallback((ids: number[]) => dispatch({ type: "select", ids }), []),
    send,
    goOn,
    nextRound,
  };
}
