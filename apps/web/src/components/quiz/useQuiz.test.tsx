// @vitest-environment jsdom
import type { AnswerResult, Question } from "@carecampus/contract";
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initialQuizState, quizReducer, type UseQuizOptions, useQuiz } from "./useQuiz";

const question: Question = {
  id: 7,
  text: "Wie lange Hände desinfizieren?",
  type: "single",
  answers: [
    { id: 1, text: "5 s" },
    { id: 2, text: "30 s" },
  ],
  media: null,
  explanation: null,
  hint: null,
  round: 1,
  count: 0,
  total: 3,
  lang: "de",
};

function answer(right: boolean, finished: AnswerResult["finished"] = null): AnswerResult {
  return {
    answers_correct: [2],
    is_correct: right,
    explanation: "<p>30 Sekunden.</p>",
    hint: null,
    media: null,
    lang: "de",
    topic: {
      id: 1,
      name: "Hygiene",
      name_lang: "de",
      icon: "hygiene",
      color: "#0a0",
      trainings: [1],
      count: 0,
      total: 1,
      question_count: right ? 1 : 0,
      question_total: 3,
      certificate_count: 0,
      certificate_total: 1,
      disabled: false,
    },
    finished,
    count: right ? 1 : 0,
    total: 3,
    help: { open: false, replies: [] },
  };
}

const done = (success: boolean): AnswerResult["finished"] => ({
  success,
  message: success ? "quiz.finished.questionnaire" : "quiz.finished.open",
  values: { open: success ? 0 : 1 },
  link: null,
});

function setup(overrides: Partial<UseQuizOptions> = {}) {
  const sent: number[][] = [];
  let reply: (q: Question, ids: number[]) => Promise<AnswerResult> = async () => answer(true);
  const options: UseQuizOptions = {
    sendAnswer: (q, ids) => {
      sent.push(ids);
      return reply(q, ids);
    },
    feedback: (right) => ({ src: right ? "right.svg" : "wrong.svg", ms: right ? 1800 : 2800 }),
    onAnswered: vi.fn(),
    loadNext: vi.fn(),
    ...overrides,
  };
  const hook = renderHook(() => useQuiz(options));
  return {
    hook,
    options,
    sent,
    replyWith(fn: typeof reply) {
      reply = fn;
    },
    async begin() {
      act(() => hook.result.current.confirm(true));
      act(() => hook.result.current.start());
    },
  };
}

describe("useQuiz", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("starts only after the independence confirmation", () => {
    const { hook } = setup();
    expect(hook.result.current.phase).toBe("intro");
    act(() => hook.result.current.start());
    expect(hook.result.current.phase).toBe("intro");
    act(() => hook.result.current.confirm(true));
    act(() => hook.result.current.start());
    expect(hook.result.current.phase).toBe("question");
  });

  it("cannot send before an answer is chosen (spec §5)", async () => {
    const t = setup();
    await t.begin();
    expect(t.hook.result.current.canSend).toBe(false);
    await act(() => t.hook.result.current.send(question));
    expect(t.sent).toEqual([]);
    act(() => t.hook.result.current.select([2]));
    expect(t.hook.result.current.canSend).toBe(true);
  });

  it("a right answer shows the pop-up for 1.8 s, then the explanation; 'next' loads the next question", async () => {
    const t = setup();
    await t.begin();
    act(() => t.hook.result.current.select([2]));
    await act(() => t.hook.result.current.send(question));
    expect(t.sent).toEqual([[2]]);
    expect(t.hook.result.current.phase).toBe("feedback");
    expect(t.hook.result.current.popup).toEqual({ src: "right.svg", right: true });
    expect(t.hook.result.current.canSend).toBe(false);
    expect(t.options.onAnswered).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1799));
    expect(t.hook.result.current.phase).toBe("feedback");
    act(() => vi.advanceTimersByTime(1));
    expect(t.hook.result.current.phase).toBe("explanation");
    expect(t.hook.result.current.popup).toBeNull();
    expect(t.hook.result.current.asked?.id).toBe(7);
    act(() => t.hook.result.current.goOn());
    expect(t.hook.result.current.phase).toBe("question");
    expect(t.hook.result.current.selected).toEqual([]);
    expect(t.hook.result.current.result).toBeNull();
    expect(t.options.loadNext).toHaveBeenCalledTimes(1);
  });

  it("a wrong answer keeps the pop-up for 2.8 s", async () => {
    const t = setup();
    t.replyWith(async () => answer(false));
    await t.begin();
    act(() => t.hook.result.current.select([1]));
    await act(() => t.hook.result.current.send(question));
    expect(t.hook.result.current.popup?.right).toBe(false);
    act(() => vi.advanceTimersByTime(2799));
    expect(t.hook.result.current.phase).toBe("feedback");
    act(() => vi.advanceTimersByTime(1));
    expect(t.hook.result.current.phase).toBe("explanation");
  });

  it("sends once when pressed twice, and is locked while the answer travels", async () => {
    const t = setup();
    let release: (r: AnswerResult) => void = () => {};
    t.replyWith(() => new Promise((resolve) => (release = resolve)));
    await t.begin();
    act(() => t.hook.result.current.select([2]));
    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = t.hook.result.current.send(question);
      void t.hook.result.current.send(question);
    });
    expect(t.hook.result.current.phase).toBe("sending");
    expect(t.hook.result.current.canSend).toBe(false);
    await act(async () => {
      release(answer(true));
      await first;
    });
    expect(t.sent).toHaveLength(1);
    expect(t.hook.result.current.phase).toBe("feedback");
  });

  it("a failed send returns to the question with the choice kept", async () => {
    const t = setup();
    t.replyWith(async () => {
      throw new Error("offline");
    });
    await t.begin();
    act(() => t.hook.result.current.select([2]));
    await act(() => t.hook.result.current.send(question));
    expect(t.hook.result.current.phase).toBe("question");
    expect(t.hook.result.current.selected).toEqual([2]);
    expect(t.options.onAnswered).not.toHaveBeenCalled();
  });

  it("a finished round goes to the result; a failed round offers the next round", async () => {
    const t = setup();
    t.replyWith(async () => answer(false, done(false)));
    await t.begin();
    act(() => t.hook.result.current.select([1]));
    await act(() => t.hook.result.current.send(question));
    act(() => vi.advanceTimersByTime(2800));
    act(() => t.hook.result.current.goOn());
    expect(t.hook.result.current.phase).toBe("result");
    expect(t.hook.result.current.result?.finished?.success).toBe(false);
    expect(t.options.loadNext).not.toHaveBeenCalled();
    act(() => t.hook.result.current.nextRound());
    expect(t.hook.result.current.phase).toBe("question");
    expect(t.hook.result.current.selected).toEqual([]);
    expect(t.options.loadNext).toHaveBeenCalledTimes(1);
  });

  it("leaving the page during the pop-up cancels its timer", async () => {
    const t = setup();
    await t.begin();
    act(() => t.hook.result.current.select([2]));
    await act(() => t.hook.result.current.send(question));
    t.hook.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("quizReducer", () => {
  it("ignores actions that do not fit the phase", () => {
    const s = quizReducer(initialQuizState, { type: "select", ids: [1] });
    expect(s).toBe(initialQuizState);
    expect(quizReducer(initialQuizState, { type: "goOn" })).toBe(initialQuizState);
    expect(quizReducer(initialQuizState, { type: "popupDone" })).toBe(initialQuizState);
    expect(quizReducer(initialQuizState, { type: "nextRound" })).toBe(initialQuizState);
  });
});
