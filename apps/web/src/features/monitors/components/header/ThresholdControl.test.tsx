import {
  ALERT_THRESHOLD_HELP,
  monitorFormErrors,
  newMonitorForm,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FormProvider, useForm } from "react-hook-form";
import { afterEach, describe, expect, it } from "vitest";
import { testPlant } from "../../../../test/fixtures";
import { MonitorFormContext, type MonitorFormCtx } from "../MonitorFormContext";
import { ThresholdControl } from "./ThresholdControl";

afterEach(() => cleanup());

const NOW = Date.UTC(2026, 10, 22, 10);
const LINE = "00000000-0000-4000-8000-000000000010";

function Shell({ readOnly }: { readOnly: boolean }) {
  const values = newMonitorForm("svd", LINE, { now: NOW, maxRecordCount: 3000 });
  const f = useForm<TMonitorFormValues>({ defaultValues: values });
  const ctx: MonitorFormCtx = {
    mode: readOnly ? "VIEW" : "CREATE",
    readOnly,
    showErrors: false,
    errors: monitorFormErrors(values, { now: NOW, maxRecordCount: 3000 }),
    customerId: "00000000-0000-4000-8000-000000000001",
    plant: testPlant(),
    maxRecordCount: 3000,
    now: () => NOW,
  };
  return (
    <FormProvider {...f}>
      <MonitorFormContext.Provider value={ctx}>
        <ThresholdControl />
      </MonitorFormContext.Provider>
    </FormProvider>
  );
}

describe("ThresholdControl", () => {
  it("says what the chosen level means: breaches of a stable process, allowing for autocorrelation and shape", async () => {
    const ue = userEvent.setup();
    render(<Shell readOnly={false} />);
    // Medium is the default (requirements.md monitor-forms §2).
    expect(screen.getByRole("button", { name: "Medium" })).toHaveAttribute("aria-pressed", "true");
    // The threshold group's description says what the chosen level means.
    const group = screen.getByRole("group", { name: "Alert threshold" });
    expect(group).toHaveAccessibleDescription(
      "Balanced (default): about 1 in 100 evaluations of a stable process breaches (α 0.01), allowing for this signal's autocorrelation and shape.",
    );
    await ue.click(screen.getByRole("button", { name: "Low" }));
    expect(group).toHaveAccessibleDescription(ALERT_THRESHOLD_HELP.low);
    expect(ALERT_THRESHOLD_HELP.low).toContain("about 1 in 20 evaluations");
    await ue.click(screen.getByRole("button", { name: "High" }));
    expect(group).toHaveAccessibleDescription(
      /^Alerts least easily: about 1 in 1,000 evaluations of a stable process breaches \(α 0\.001\)/,
    );
  });

  it("keeps the level in VIEW", async () => {
    const ue = userEvent.setup();
    render(<Shell readOnly />);
    const group = () => screen.getByRole("group", { name: "Alert threshold" });
    expect(screen.getByRole("group", { description: ALERT_THRESHOLD_HELP.medium })).toBe(group());
    expect(screen.getByRole("button", { name: "Low" })).toBeDisabled();
    await ue.click(screen.getByRole("button", { name: "Medium" }));
    expect(screen.getByRole("group", { description: ALERT_THRESHOLD_HELP.medium })).toBe(group());
  });
});
