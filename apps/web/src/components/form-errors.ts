/**
 * A contract rule's problems by field (e.g. `userFormProblems`, `eventProblems`) as the errors
 * `@mantine/form` shows next to each field, in the user's words. The rule stays the one source:
 * the form's `validate` is this over the rule, the server checks the same rule again.
 */
export function fieldErrors<P>(
  problems: Partial<Record<string, P>>,
  text: (problem: P) => string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, problem] of Object.entries(problems)) {
    if (problem !== undefined) errors[field] = text(problem);
  }
  return errors;
}
