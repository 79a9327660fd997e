import "@mantine/dates/styles.css";
import {
  Accordion,
  ActionIcon,
  Alert,
  Anchor,
  Avatar,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Checkbox,
  Chip,
  Container,
  FileInput,
  Group,
  Indicator,
  List,
  Loader,
  Menu,
  Modal,
  Notification,
  Pagination,
  Paper,
  PasswordInput,
  Popover,
  Progress,
  Radio,
  RingProgress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
} from "@mantine/core";
import { DatePicker, DatePickerInput, DatesProvider, TimePicker } from "@mantine/dates";
import { IconBell, IconCertificate, IconCheck, IconInfoCircle, IconPencil } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CertificateHistory } from "../components/CertificateHistory";
import quiz from "../components/quiz/quiz.module.css";
import { GALLERY, type GalleryItem, galleryKey } from "./gallery";

/**
 * Every component variant the app uses, in the current theme: the browser test scans this page
 * with axe in each of the four themes (e2e/tests/themes.spec.ts), with its menu, popover, tooltip
 * and dialog open, so each screen's own scan need not repeat itself per theme. The texts are the
 * app's own (any text serves: only the colours are checked). Not linked from the app.
 */
export default function ThemeGalleryPage() {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState(false);
  const label = t("common.save");
  return (
    <DatesProvider settings={{ locale: i18n.language }}>
      <Container size="lg" py="md" component="main">
        <Title order={1} mb="md">
          {t("themes.carely")} · {t("themes.dark")} · {t("themes.contrast")} · {t("themes.ocean")}
        </Title>
        <Stack gap="lg">
          {/* Overlays, open, at the top (a pop-up hides when its button leaves the view): a picker's
              calendar, a menu, a popover, a tooltip; the dialog on request. */}
          <Group align="flex-start" gap="xl" mih={320}>
            <DatePicker defaultDate={new Date(2026, 10, 1)} defaultValue={new Date(2026, 10, 28)} />
            {/* As the user menu (app/UserMenu.tsx): a label with the name and roles, items, a divider. */}
            <Menu
              opened
              withinPortal={false}
              position="bottom-start"
              hideDetached={false}
              withInitialFocusPlaceholder={false}
            >
              <Menu.Target>
                <Button variant="default">{t("common.save")}</Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>
                  <Text component="div" size="sm" fw={600} c="var(--mantine-color-text)">
                    {t("login.username")}
                  </Text>
                  <Text component="div" size="xs" c="dimmed">
                    {t("common.loading")}
                  </Text>
                </Menu.Label>
                <Menu.Item leftSection={<IconPencil size={16} />}>{t("common.save")}</Menu.Item>
                <Menu.Divider />
                <Menu.Item leftSection={<IconBell size={16} />}>{t("common.cancel")}</Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <Popover opened withinPortal={false} position="bottom" withArrow hideDetached={false}>
              <Popover.Target>
                <Button variant="light">{t("common.yes")}</Button>
              </Popover.Target>
              <Popover.Dropdown>
                <Text size="sm">{t("common.copied")}</Text>
                <Text size="xs" c="dimmed">
                  {t("common.loading")}
                </Text>
              </Popover.Dropdown>
            </Popover>
            <Tooltip label={t("common.close")} opened withinPortal={false}>
              <Button variant="subtle">{t("common.no")}</Button>
            </Tooltip>
          </Group>
          <Group gap="xs" data-testid="gallery-items">
            {GALLERY.map((item) => (
              <GalleryEntry key={galleryKey(item)} item={item} label={label} />
            ))}
          </Group>

          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Paper withBorder p="md">
              <Stack gap="sm">
                <TextInput label={t("login.username")} description={t("common.loading")} placeholder="…" />
                <TextInput label={t("login.password")} error={t("errors.1000")} defaultValue="x" />
                <PasswordInput label={t("login.password")} defaultValue="secret" />
                <Textarea label={t("common.save")} defaultValue={t("common.copied")} />
                <Select
                  label={t("common.save")}
                  data={[t("common.yes"), t("common.no")]}
                  defaultValue={t("common.yes")}
                />
                <FileInput label={t("common.save")} placeholder="…" />
                <DatePickerInput label={t("common.save")} defaultValue={new Date(2026, 10, 28)} />
                <TimePicker label={t("common.save")} defaultValue="09:30" />
                <TextInput label={t("common.cancel")} disabled defaultValue={t("common.no")} />
              </Stack>
            </Paper>
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Checkbox label={t("common.yes")} defaultChecked description={t("common.loading")} />
                <Checkbox label={t("common.no")} />
                <Radio.Group label={t("common.save")} defaultValue="a">
                  <Group mt="xs">
                    <Radio value="a" label={t("common.yes")} />
                    <Radio value="b" label={t("common.no")} />
                  </Group>
                </Radio.Group>
                <Switch label={t("common.yes")} defaultChecked />
                <SegmentedControl data={[t("common.yes"), t("common.no"), t("common.cancel")]} />
                <Group gap="xs">
                  <Chip defaultChecked>{t("common.yes")}</Chip>
                  <Chip>{t("common.no")}</Chip>
                </Group>
                <Pagination total={5} defaultValue={2} size="sm" />
                <Breadcrumbs>
                  <Anchor href="#">{t("nav.backHome")}</Anchor>
                  <Text>{t("common.save")}</Text>
                </Breadcrumbs>
                {/* Dimmed small text with a link in it (the certificate history of /profile and the user card). */}
                <CertificateHistory
                  certificates={[
                    {
                      id: 1,
                      acquired_at: "2024-03-10T10:00:00.000Z",
                      expires_at: "2025-03-10T10:00:00.000Z",
                      active_working_cert: false,
                    },
                  ]}
                />
              </Stack>
            </Paper>
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Card withBorder>
              <Text fw={600}>{t("expiry.green")}</Text>
              <Text size="sm" c="dimmed">
                {t("expiry.yellow")}
              </Text>
              <Progress value={60} mt="sm" aria-label={t("common.loading")} />
              <Group mt="sm">
                <RingProgress
                  size={80}
                  sections={[{ value: 40, color: "teal" }]}
                  label={<Text ta="center">40 %</Text>}
                />
                <Indicator label="3" size={18}>
                  <Avatar aria-label={t("common.save")}>CC</Avatar>
                </Indicator>
                <Loader />
              </Group>
              <Skeleton h={20} mt="sm" />
            </Card>
            <Card withBorder>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("common.save")}</Table.Th>
                    <Table.Th>{t("common.cancel")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[1, 2, 3].map((n) => (
                    <Table.Tr key={n}>
                      <Table.Td>{t("common.yes")}</Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {t("common.no")}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <List size="sm" mt="sm">
                <List.Item>{t("expiry.red")}</List.Item>
                <List.Item>{t("expiry.orange")}</List.Item>
              </List>
            </Card>
          </SimpleGrid>

          <Accordion variant="separated" defaultValue="a">
            <Accordion.Item value="a">
              <Accordion.Control>{t("common.save")}</Accordion.Control>
              <Accordion.Panel>{t("common.copied")}</Accordion.Panel>
            </Accordion.Item>
            <Accordion.Item value="b">
              <Accordion.Control>{t("common.cancel")}</Accordion.Control>
              <Accordion.Panel>{t("common.copyFailed")}</Accordion.Panel>
            </Accordion.Item>
          </Accordion>

          {/* As the toasts (api/client.ts): a message in red or teal, with a border and a named close button. */}
          <Stack gap="xs">
            {["red", "teal"].map((color) => (
              <Notification key={color} color={color} withBorder closeButtonProps={{ "aria-label": t("common.close") }}>
                {t("common.copied")}
              </Notification>
            ))}
          </Stack>

          {/* The quiz's marks (components/quiz/quiz.module.css). */}
          <Stack gap="xs">
            <Text className={quiz.verdict} data-right fw={700}>
              {t("quiz.right")}
            </Text>
            <Text className={quiz.verdict} fw={700}>
              {t("quiz.wrong")}
            </Text>
            {(["chosenRight", "right", "missed", "chosenWrong"] as const).map((mark) => (
              <div key={mark} className={quiz.feedbackAnswer} data-mark={mark}>
                <Text>{t("common.yes")}</Text>
                <Text size="sm" className={quiz.markText}>
                  {t("common.no")}
                </Text>
              </div>
            ))}
          </Stack>

          <Group>
            <Button onClick={() => setDialog(true)} data-testid="gallery-open-dialog">
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
        <Modal opened={dialog} onClose={() => setDialog(false)} title={t("common.save")}>
          <Stack>
            <Text>{t("common.copied")}</Text>
            <Text size="sm" c="dimmed">
              {t("common.loading")}
            </Text>
            <TextInput label={t("login.username")} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(false)}>
                {t("common.cancel")}
              </Button>
              <Button color="red">{t("common.save")}</Button>
            </Group>
          </Stack>
        </Modal>
      </Container>
    </DatesProvider>
  );
}

function GalleryEntry({ item, label }: { item: GalleryItem; label: string }) {
  const { color, variant } = item;
  switch (item.component) {
    case "Button":
      return (
        <Button color={color} variant={variant}>
          {label}
        </Button>
      );
    case "Badge":
      return (
        <Badge color={color} variant={variant} leftSection={<IconCertificate size={12} />}>
          {label}
        </Badge>
      );
    case "ActionIcon":
      return (
        <ActionIcon color={color} variant={variant} aria-label={label}>
          <IconBell size={18} />
        </ActionIcon>
      );
    case "ThemeIcon":
      return (
        <ThemeIcon color={color} variant={variant}>
          <IconCheck size={18} />
        </ThemeIcon>
      );
    case "Alert":
      return (
        <Alert color={color} variant={variant} title={label} icon={<IconInfoCircle />} w="100%">
          <Text size="sm">{label}</Text>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          {/* The one alert with a link in it (the wiki editor's, orange). */}
          {color === "orange" && (
            <Anchor href="#" size="sm">
              {label}
            </Anchor>
          )}
        </Alert>
      );
    case "Text":
      return item.large ? (
        <Text c={item.c} fz={28} fw={700}>
          {label}
        </Text>
      ) : (
        <Text c={item.c}>{label}</Text>
      );
  }
}
