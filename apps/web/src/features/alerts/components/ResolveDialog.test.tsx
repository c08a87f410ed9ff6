import { ALERT_NO_CAUSE } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockApi } from "../../../test/mockApi";
import { ResolveDialog } from "./ResolveDialog";

const ALERT = "00000000-0000-4000-8000-000000000031";
const server = setupServer(
  mockApi.get("*/api/alerts/:id/causes", () => HttpResponse.json({ causes: ["Torque out of range"] })),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => cleanup());
afterAll(() => server.close());

function renderDialog(alertId: string | null, onResolve = vi.fn()) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ui = (id: string | null) => (
    <QueryClientProvider client={qc}>
      <ResolveDialog alertId={id} busy={false} onCancel={() => {}} onResolve={onResolve} />
    </QueryClientProvider>
  );
  const r = render(ui(alertId));
  return { onResolve, rerender: (id: string | null) => r.rerender(ui(id)) };
}

describe("ResolveDialog", { timeout: 30_000 }, () => {
  it("needs a cause: Resolve stays disabled until one is typed, picked, or 'No cause given' is chosen", async () => {
    const ue = userEvent.setup();
    const { onResolve } = renderDialog(ALERT);
    const resolve = () => screen.getByRole("button", { name: "Resolve" }) as HTMLButtonElement;
    expect(resolve()).toBeDisabled();
    await ue.type(screen.getByRole("combobox", { name: /Cause/ }), "   ");
    expect(resolve()).toBeDisabled();
    await ue.clear(screen.getByRole("combobox", { name: /Cause/ }));
    await ue.keyboard("{ArrowDown}");
    await ue.click(await screen.findByRole("option", { name: ALERT_NO_CAUSE }));
    expect(resolve()).not.toBeDisabled();
    await ue.click(resolve());
    expect(onResolve).toHaveBeenCalledWith({ cause: ALERT_NO_CAUSE, comment: undefined });
  });

  it("keeps the cause and comment after Resolve until the dialog closes (a failed resolve loses nothing)", async () => {
    const ue = userEvent.setup();
    const { onResolve, rerender } = renderDialog(ALERT);
    await ue.type(screen.getByRole("combobox", { name: /Cause/ }), "Nut runner recalibrated");
    await ue.type(screen.getByRole("textbox", { name: "Comment" }), "Checked twice");
    await ue.click(screen.getByRole("button", { name: "Resolve" }));
    expect(onResolve).toHaveBeenCalledWith({ cause: "Nut runner recalibrated", comment: "Checked twice" });
    expect(screen.getByRole("combobox", { name: /Cause/ })).toHaveValue("Nut runner recalibrated");
    rerender(null);
    rerender(ALERT);
    await waitFor(() =>
      expect((screen.getByRole("combobox", { name: /Cause/ }) as HTMLInputElement).value).toBe(""),
    );
  });
});
