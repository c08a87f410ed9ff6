import {
  monitorFormErrors,
  newMonitorForm,
  RULE_MESSAGES,
  RULE_TITLES,
  type TFormMode,
  type TMonitorFormValues,
  type TPlant,
} from "@linewatch/contracts";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FormProvider, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { afterEach, describe, expect, it } from "vitest";
import { MonitorFormContext, type MonitorFormCtx } from "../MonitorFormContext";
import { AlertRulesTab } from "./AlertRulesTab";

const NOW = Date.parse("2026-11-22T10:00:00Z");
const LINE_ID = "00000000-0000-4000-8000-000000000010";
const plant: TPlant = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Detroit",
  timeZone: "UTC",
  active: true,
};

let form: UseFormReturn<TMonitorFormValues>;

/** The tab inside a form like the monitor form's: errors recomputed from the values, as the shell does. */
function Harness(p: { mode: TFormMode; showErrors: boolean; initial: TMonitorFormValues }) {
  form = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  const values = useWatch({ control: form.control }) as TMonitorFormValues;
  const ctx: MonitorFormCtx = {
    mode: p.mode,
    readOnly: p.mode === "VIEW",
    showErrors: p.showErrors,
    errors: monitorFormErrors(values, { now: NOW }),
    customerId: "00000000-0000-4000-8000-000000000001",
    plant,
    maxRecordCount: 10_000,
    now: () => NOW,
  };
  return (
    <FormProvider {...form}>
      <MonitorFormContext.Provider value={ctx}>
        <AlertRulesTab />
      </MonitorFormContext.Provider>
      <output data-testid="dirty">{String(form.formState.isDirty)}</output>
    </FormProvider>
  );
}

function renderTab(
  opts: { mode?: TFormMode; showErrors?: boolean; change?: (v: TMonitorFormValues) => void } = {},
) {
  const initial = newMonitorForm("svd", LINE_ID, { now: NOW });
  opts.change?.(initial);
  render(<Harness mode={opts.mode ?? "EDIT"} showErrors={opts.showErrors ?? true} initial={initial} />);
}

afterEach(cleanup);

const group = (title: string) => screen.getByRole("group", { name: title });
const ruleSwitch = (title: string) => within(group(title)).getByRole("switch", { name: title });
const field = (title: string, label: string) =>
  within(group(title)).getByRole("textbox", { name: label }) as HTMLInputElement;
const consecutive = () => field(RULE_TITLES.Consecutive, "Consecutive Breaches");
const runsBreaches = () => field(RULE_TITLES.ExceedanceRuns, "Breaches");
const runs = () => field(RULE_TITLES.ExceedanceRuns, "Runs");
const timeBreaches = () => field(RULE_TITLES.ExceedanceTime, "Breaches");
const minutes = () => field(RULE_TITLES.ExceedanceTime, "Time (min)");

async function retype(input: HTMLInputElement, text: string) {
  const ue = userEvent.setup();
  await ue.clear(input);
  if (text) await ue.type(input, text);
}

describe("AlertRulesTab", () => {
  it("starts with every rule off, the spec's defaults and the no-rules message", () => {
    renderTab();
    for (const t of Object.values(RULE_TITLES)) expect(ruleSwitch(t)).not.toBeChecked();
    expect(consecutive()).toHaveValue("1");
    expect(runsBreaches()).toHaveValue("7");
    expect(runs()).toHaveValue("15");
    expect(timeBreaches()).toHaveValue("7");
    // 900 s shown as 15 minutes.
    expect(minutes()).toHaveValue("15");
    // Inputs of a rule that is off cannot be edited.
    expect(runs()).toBeDisabled();
    expect(screen.getByText(RULE_MESSAGES.noRules)).toBeInTheDocument();
    expect(form.getValues("rules")).toEqual({
      consecutiveEnabled: false,
      consecutiveBreaches: 1,
      runsEnabled: false,
      runs: 15,
      breachesForRuns: 7,
      timeEnabled: false,
      breachesForTime: 7,
      seconds: 900,
    });
  });

  it("switches each rule on and off on its own; the no-rules message shows only with all off", async () => {
    const ue = userEvent.setup();
    renderTab();
    await ue.click(ruleSwitch(RULE_TITLES.ExceedanceRuns));
    expect(form.getValues("rules.runsEnabled")).toBe(true);
    expect(form.getValues("rules.consecutiveEnabled")).toBe(false);
    expect(form.getValues("rules.timeEnabled")).toBe(false);
    expect(runs()).not.toBeDisabled();
    expect(consecutive()).toBeDisabled();
    expect(screen.queryByText(RULE_MESSAGES.noRules)).not.toBeInTheDocument();
    expect(screen.getByTestId("dirty").textContent).toBe("true");

    await ue.click(ruleSwitch(RULE_TITLES.Consecutive));
    await ue.click(ruleSwitch(RULE_TITLES.ExceedanceTime));
    expect(form.getValues("rules")).toMatchObject({
      consecutiveEnabled: true,
      runsEnabled: true,
      timeEnabled: true,
    });

    for (const t of Object.values(RULE_TITLES)) await ue.click(ruleSwitch(t));
    expect(form.getValues("rules")).toMatchObject({
      consecutiveEnabled: false,
      runsEnabled: false,
      timeEnabled: false,
    });
    expect(screen.getByText(RULE_MESSAGES.noRules)).toBeInTheDocument();
  });

  it("takes digits only; an emptied input is empty, not zero", async () => {
    const ue = userEvent.setup();
    renderTab({ change: (v) => (v.rules.runsEnabled = true) });
    await ue.clear(runs());
    await ue.type(runs(), "2a-5.,e 0");
    expect(runs()).toHaveValue("250");
    expect(form.getValues("rules.runs")).toBe(250);

    await ue.clear(runsBreaches());
    expect(runsBreaches().value).toBe("");
    expect(form.getValues("rules.breachesForRuns")).toBeNull();
    await ue.type(runsBreaches(), "-3");
    expect(form.getValues("rules.breachesForRuns")).toBe(3);
  });

  it("shows the time in minutes and stores it in seconds", async () => {
    renderTab({
      change: (v) => {
        v.rules.timeEnabled = true;
        v.rules.seconds = 3600;
      },
    });
    expect(minutes()).toHaveValue("60");
    await retype(minutes(), "25");
    expect(form.getValues("rules.seconds")).toBe(1500);
    expect(minutes()).toHaveValue("25");
    await retype(minutes(), "1440");
    expect(form.getValues("rules.seconds")).toBe(86_400);
    expect(
      screen.getByText("Alerts when at least 7 evaluations breach within 1440 min."),
    ).toBeInTheDocument();
  });

  it("shows every message of the runs rule", async () => {
    renderTab({ change: (v) => (v.rules.runsEnabled = true) });
    const runsGroup = group(RULE_TITLES.ExceedanceRuns);
    const cases: [() => HTMLInputElement, string, string][] = [
      [runs, "", RULE_MESSAGES.runsRequired],
      [runs, "0", RULE_MESSAGES.runsMin],
      [runs, "1000", RULE_MESSAGES.runsMax],
    ];
    for (const [input, text, message] of cases) {
      await retype(input(), text);
      expect(within(runsGroup).getByText(message)).toBeInTheDocument();
    }
    await retype(runs(), "15");
    const breachCases: [string, string][] = [
      ["", RULE_MESSAGES.breachesRequired],
      ["0", RULE_MESSAGES.breachesMin],
      ["1000", RULE_MESSAGES.breachesMax],
      // The engine's check: k of n needs k ≤ n.
      ["16", RULE_MESSAGES.breachesExceedRuns],
    ];
    for (const [text, message] of breachCases) {
      await retype(runsBreaches(), text);
      expect(within(runsGroup).getByText(message)).toBeInTheDocument();
    }
    await retype(runsBreaches(), "15");
    for (const m of Object.values(RULE_MESSAGES))
      if (typeof m === "string") expect(within(runsGroup).queryByText(m)).not.toBeInTheDocument();
  });

  it("shows every message of the time rule and of the consecutive rule", async () => {
    renderTab({
      change: (v) => {
        v.rules.timeEnabled = true;
        v.rules.consecutiveEnabled = true;
      },
    });
    const timeGroup = group(RULE_TITLES.ExceedanceTime);
    const timeCases: [() => HTMLInputElement, string, string][] = [
      [minutes, "", RULE_MESSAGES.timeRequired],
      [minutes, "0", RULE_MESSAGES.timeMin],
      [minutes, "1441", RULE_MESSAGES.timeMax],
      [timeBreaches, "", RULE_MESSAGES.breachesRequired],
      [timeBreaches, "0", RULE_MESSAGES.breachesMin],
      [timeBreaches, "1000", RULE_MESSAGES.breachesMax],
    ];
    for (const [input, text, message] of timeCases) {
      await retype(input(), text);
      expect(within(timeGroup).getByText(message)).toBeInTheDocument();
    }

    const consecutiveGroup = group(RULE_TITLES.Consecutive);
    const consecutiveCases: [string, string][] = [
      ["", RULE_MESSAGES.breachesRequired],
      ["0", RULE_MESSAGES.consecutiveMin],
      ["1000", RULE_MESSAGES.consecutiveMax],
    ];
    for (const [text, message] of consecutiveCases) {
      await retype(consecutive(), text);
      expect(within(consecutiveGroup).getByText(message)).toBeInTheDocument();
    }
    await retype(consecutive(), "999");
    expect(within(consecutiveGroup).queryByText(RULE_MESSAGES.consecutiveMax)).not.toBeInTheDocument();
  });

  it("shows errors only for rules that are on, and only once validation is shown", async () => {
    const ue = userEvent.setup();
    renderTab({
      change: (v) => {
        v.rules.runs = 0;
        v.rules.seconds = null;
        v.rules.consecutiveBreaches = 1000;
      },
    });
    expect(screen.queryByText(RULE_MESSAGES.runsMin)).not.toBeInTheDocument();
    expect(screen.queryByText(RULE_MESSAGES.timeRequired)).not.toBeInTheDocument();
    expect(screen.queryByText(RULE_MESSAGES.consecutiveMax)).not.toBeInTheDocument();

    await ue.click(ruleSwitch(RULE_TITLES.ExceedanceRuns));
    expect(within(group(RULE_TITLES.ExceedanceRuns)).getByText(RULE_MESSAGES.runsMin)).toBeInTheDocument();
    expect(screen.queryByText(RULE_MESSAGES.timeRequired)).not.toBeInTheDocument();

    await ue.click(ruleSwitch(RULE_TITLES.ExceedanceRuns));
    expect(screen.queryByText(RULE_MESSAGES.runsMin)).not.toBeInTheDocument();
    cleanup();

    // CREATE before the first save: nothing shown yet (requirements.md monitor-forms §4).
    renderTab({ showErrors: false, change: (v) => (v.rules.runsEnabled = true) });
    await retype(runs(), "0");
    expect(screen.queryByText(RULE_MESSAGES.runsMin)).not.toBeInTheDocument();
  });

  it("warns, without an error, when the time rule can never fire at the monitor's frequency", async () => {
    renderTab({
      change: (v) => {
        v.rules.timeEnabled = true;
        v.rules.seconds = 3600;
        v.frequency = 5;
      },
    });
    // 7 breaches 5 min apart span 30 min: they fit in 60 min.
    expect(screen.queryByText(/can never fire/)).not.toBeInTheDocument();

    act(() => form.setValue("frequency", 30));
    // 7 breaches 30 min apart span 180 min, longer than 60 min.
    const warning = within(group(RULE_TITLES.ExceedanceTime)).getByText(
      RULE_MESSAGES.timeRuleNeverFires(7, 30, 3600),
    );
    expect(warning.closest(".MuiAlert-root")?.className).toMatch(/colorWarning/);
    // A warning, not a validation error: the form can still be saved.
    expect(monitorFormErrors(form.getValues(), { now: NOW }).filter((e) => e.tab === "rules")).toEqual([]);

    await retype(timeBreaches(), "3");
    // 3 breaches 30 min apart span 60 min: fits.
    expect(screen.queryByText(/can never fire/)).not.toBeInTheDocument();
    await retype(timeBreaches(), "7");
    expect(screen.getByText(/can never fire/)).toBeInTheDocument();

    // Only for a rule that is on.
    await userEvent.setup().click(ruleSwitch(RULE_TITLES.ExceedanceTime));
    expect(screen.queryByText(/can never fire/)).not.toBeInTheDocument();
  });

  it("is read-only in VIEW", async () => {
    // Clicks go through even where the page would not let them (disabled switch).
    const ue = userEvent.setup({ pointerEventsCheck: 0 });
    renderTab({
      mode: "VIEW",
      change: (v) => {
        v.rules.runsEnabled = true;
        v.rules.runs = 20;
      },
    });
    for (const t of Object.values(RULE_TITLES)) expect(ruleSwitch(t)).toBeDisabled();
    await ue.click(ruleSwitch(RULE_TITLES.Consecutive));
    expect(form.getValues("rules.consecutiveEnabled")).toBe(false);

    expect(runs().readOnly).toBe(true);
    expect(runs()).toHaveValue("20");
    await ue.type(runs(), "5");
    expect(runs()).toHaveValue("20");
    expect(form.getValues("rules.runs")).toBe(20);
    expect(screen.getByTestId("dirty").textContent).toBe("false");
  });
});
