import { CSV_MESSAGES, type TCsvUploadProgress } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { CsvUploadSection } from "./CsvUploadSection";

// The dialog polls every CSV_UPLOAD_PROGRESS_POLL_MS (1 s): a shorter interval keeps the test short.
vi.mock("@linewatch/contracts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@linewatch/contracts")>()),
  CSV_UPLOAD_PROGRESS_POLL_MS: 50,
}));

const plant = testPlant();
const counts: TCsvUploadProgress = {
  rowsRead: 2_500,
  stored: 2_000,
  duplicates: 0,
  rejected: 0,
  isRunning: true,
};

/** The upload the server is running: its id (from the query), and Cancel's signal to answer it. */
let running: { id: string; cancel: () => void } | null = null;
let cancelledIds: string[] = [];

const server = setupServer(
  mockApi.post("*/api/plants/:plantId/part-records/csv", async ({ request }) => {
    const id = new URL(request.url).searchParams.get("upload") ?? "";
    await request.text();
    // Runs until Cancel, then answers with what was stored before it.
    await new Promise<void>((resolve) => {
      running = { id, cancel: resolve };
    });
    running = null;
    return HttpResponse.json({
      stored: 2_500,
      duplicates: 0,
      rows: 2_500,
      rejected: [],
      rejectedMore: 0,
      error: null,
      cancelledAfterLine: 2_501,
    });
  }),
  mockApi.get("*/api/plants/:plantId/part-records/csv/:uploadId/progress", ({ params }) =>
    running?.id === params.uploadId
      ? HttpResponse.json(counts)
      : refusal(404, { message: CSV_MESSAGES.uploadNotFound }),
  ),
  mockApi.post("*/api/plants/:plantId/part-records/csv/:uploadId/cancel", ({ params }) => {
    const upload = running;
    if (!upload || upload.id !== params.uploadId)
      return refusal(404, { message: CSV_MESSAGES.uploadNotFound });
    cancelledIds.push(upload.id);
    upload.cancel();
    return HttpResponse.json({ ...counts, isRunning: false });
  }),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([])),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  running = null;
  cancelledIds = [];
});
afterAll(() => server.close());

describe("CsvUploadSection", { timeout: 30_000 }, () => {
  it("shows rows read and stored while the upload runs; Cancel stops it and the summary says what stayed stored", async () => {
    const ue = userEvent.setup();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={qc}>
        <CsvUploadSection plant={plant} />
      </QueryClientProvider>,
    );
    await ue.click(screen.getByRole("button", { name: "Upload CSV" }));
    const dialog = await screen.findByRole("dialog");
    const csv = "line,station,partId,timestamp,Torque\nL,S,P-1,2026-11-22T10:00:00Z,1\n";
    await ue.upload(
      within(dialog).getByLabelText("CSV file"),
      new File([csv], "parts.csv", { type: "text/csv" }),
    );
    await within(dialog).findByTestId("csv-columns");
    await ue.click(within(dialog).getByRole("button", { name: "Upload" }));

    // The server's counts, polled while it runs.
    expect(
      (await within(dialog).findByTestId("csv-upload-counts", {}, { timeout: 10_000 })).textContent,
    ).toBe(CSV_MESSAGES.progress(2_500, 2_000));
    const uploadId = running?.id;
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);

    // Closing while busy (Escape, from within the dialog) asks first; keeping it running changes nothing.
    within(dialog).getByRole("button", { name: "Cancel upload" }).focus();
    await ue.keyboard("{Escape}");
    const confirm = await screen.findByRole(
      "dialog",
      { name: CSV_MESSAGES.confirmCloseTitle },
      { timeout: 10_000 },
    );
    await ue.click(within(confirm).getByRole("button", { name: CSV_MESSAGES.confirmCloseNo }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: CSV_MESSAGES.confirmCloseTitle })).toBeNull(),
    );
    expect(cancelledIds).toEqual([]);

    await ue.click(within(dialog).getByRole("button", { name: "Cancel upload" }));
    const summary = await within(dialog).findByTestId("csv-upload-summary", {}, { timeout: 10_000 });
    expect(cancelledIds).toEqual([uploadId]);
    expect(within(summary).getByRole("alert").textContent).toBe(CSV_MESSAGES.cancelled(2_500, 2_501));
  });
});
