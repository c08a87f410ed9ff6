import { SIGNAL_MANAGEMENT_TEXT as TEXT } from "@linewatch/contracts";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TAssociationPlan } from "../associations";
import { AssociationConfirmDialog } from "./AssociationConfirmDialog";
import type { TCapFormulasState } from "./CapFormulaList";

afterEach(cleanup);

// Angle dragged into Upper Limit: it stops being a measurement, and Torque's USL formula uses it.
const plan: TAssociationPlan = {
  entityChanges: [{ signal: "Angle", from: "Measurement", to: "Upper Limit", capLimits: false }],
  associationChanges: [{ kind: "create", measurement: "Torque", role: "upperLimit", signal: "Angle" }],
  request: [],
};
const renderDialog = (capFormulas: TCapFormulasState) =>
  render(
    <AssociationConfirmDialog
      open
      plan={plan}
      capFormulas={capFormulas}
      isSaving={false}
      onSave={vi.fn()}
      onCancel={vi.fn()}
    />,
  );

describe("AssociationConfirmDialog: cap limit formulas", () => {
  it("names the formulas that use a converted signal with the entity changes", () => {
    renderDialog({
      lines: [{ signal: "Torque", cell: "USL", model: "*", uses: ["Angle"] }],
      isLoading: false,
      isError: false,
    });
    const dialog = screen.getByRole("dialog");
    const list = within(dialog).getByRole("list", { name: TEXT.capFormulas });
    expect(within(list).getByText(TEXT.capFormulaLine("Torque", "USL", "*"))).toBeInTheDocument();
    expect(within(list).getByText(TEXT.capFormulaUses("Angle"))).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.next }));
    expect(within(dialog).queryByRole("list", { name: TEXT.capFormulas })).not.toBeInTheDocument();
  });

  it("waits for the formulas before Next, and says when they could not be checked", () => {
    renderDialog({ lines: undefined, isLoading: true, isError: false });
    expect(screen.getByText(TEXT.capFormulasLoading)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.next })).toBeDisabled();
    cleanup();
    renderDialog({ lines: undefined, isLoading: false, isError: true });
    expect(screen.getByText(TEXT.capFormulasFailed)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.next })).not.toBeDisabled();
  });
});
