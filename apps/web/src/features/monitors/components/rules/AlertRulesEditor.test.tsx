import { DEFAULT_RULE_FORM, RULE_MESSAGES, RULE_TITLES, type TRuleFormValues } from "@linewatch/contracts";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AlertRulesEditor } from "./AlertRulesEditor";

afterEach(cleanup);

/** The editor as a modal would hold it: its own state, no form around it. */
function Standalone(p: { onChange: (v: TRuleFormValues) => void; readOnly?: boolean }) {
  const [values, setValues] = useState<TRuleFormValues>(DEFAULT_RULE_FORM);
  return (
    <AlertRulesEditor
      values={values}
      frequency={5}
      readOnly={p.readOnly}
      onChange={(next) => {
        setValues(next);
        p.onChange(next);
      }}
    />
  );
}

const group = (title: string) => screen.getByRole("group", { name: title });

describe("AlertRulesEditor on its own", () => {
  it("hands every change to onChange and shows the errors of switched-on rules", async () => {
    const onChange = vi.fn();
    render(<Standalone onChange={onChange} />);
    const ue = userEvent.setup();
    await ue.click(within(group(RULE_TITLES.ExceedanceRuns)).getByRole("switch"));
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_RULE_FORM, runsEnabled: true });
    const runs = within(group(RULE_TITLES.ExceedanceRuns)).getByRole("textbox", { name: "Runs" });
    await ue.clear(runs);
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_RULE_FORM, runsEnabled: true, runs: null });
    expect(screen.getByText(RULE_MESSAGES.runsRequired)).toBeInTheDocument();
  });

  it("changes nothing when read-only", async () => {
    const onChange = vi.fn();
    render(<Standalone onChange={onChange} readOnly />);
    const toggle = within(group(RULE_TITLES.Consecutive)).getByRole("switch") as HTMLInputElement;
    expect(toggle).toBeDisabled();
    expect(screen.getByText(RULE_MESSAGES.noRules)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });
});
