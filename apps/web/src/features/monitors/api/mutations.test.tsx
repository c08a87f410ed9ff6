import { DEFAULT_MONITOR_RULES, MONITOR_MESSAGES, type TTaskCreateBody } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { plantKeys } from "../../../shared/data/plants/keys";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { testMonitor } from "../../../test/fixtures";
import { mockApi } from "../../../test/mockApi";
import { lineOverviewKeys } from "../../line-overview/api/keys";
import { monitorKeys } from "./keys";
import { useCreateMonitor, useSetMonitorActive } from "./mutations";

const CUST = "00000000-0000-4000-8000-000000000001";
const PLANT = "00000000-0000-4000-8000-000000000002";
const LINE = "00000000-0000-4000-8000-000000000005";
const MID = "00000000-0000-4000-8000-000000000020";

const task: TTaskCreateBody = {
  task_name: "Axle MVD",
  task_type: "mvd",
  active: true,
  frequency: 5,
  notes: "",
  task_details: {
    cust_uuid: CUST,
    plant_uuid: PLANT,
    line_uuid: LINE,
    signal_uuids: [],
    evaluation_ratio: 0.2,
    sample_size: 150,
  },
};
/** The created monitor as the routes answer it (ZMonitor), of the task's name and line. */
const monitor = testMonitor(
  { monitor_uuid: MID, monitor_name: task.task_name },
  { cust_uuid: CUST, plant_uuid: PLANT, line_uuid: LINE },
);

const server = setupServer(
  mockApi.post("*/api/tasks", () => HttpResponse.json(monitor, { status: 201 })),
  mockApi.patch("*/api/notifications/monitor-rules/:id", () => HttpResponse.json(DEFAULT_MONITOR_RULES)),
  mockApi.patch("*/api/monitors/:monitorId", () => HttpResponse.json(monitor)),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(cleanup);
afterAll(() => server.close());

function setup() {
  const qc = new QueryClient();
  const invalidate = vi.spyOn(qc, "invalidateQueries");
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      <SnackbarProvider>{children}</SnackbarProvider>
    </QueryClientProvider>
  );
  const keys = () => invalidate.mock.calls.map(([f]) => JSON.stringify(f?.queryKey));
  return { wrapper, keys };
}

describe("monitor mutation hooks", () => {
  it("create: saves the rules too, invalidates every key that shows monitors and shows the spec's message", async () => {
    const { wrapper, keys } = setup();
    const { result } = renderHook(() => useCreateMonitor(), { wrapper });
    let created: Awaited<ReturnType<typeof result.current.mutateAsync>> | undefined;
    await act(async () => {
      created = await result.current.mutateAsync({ task, rules: DEFAULT_MONITOR_RULES });
    });
    expect(created?.outcome).toEqual({
      kind: "success",
      snackbar: `${MONITOR_MESSAGES.created} , ${MONITOR_MESSAGES.rulesSaved}`,
    });
    for (const key of [
      monitorKeys.all,
      lineOverviewKeys.monitors(LINE),
      plantKeys.lines(PLANT),
      plantKeys.line(LINE),
    ])
      expect(keys()).toContain(JSON.stringify(key));
    expect(
      await screen.findByText(`${MONITOR_MESSAGES.created} , ${MONITOR_MESSAGES.rulesSaved}`),
    ).toBeInTheDocument();
  });

  it("takes the caller's success text and callbacks", async () => {
    const { wrapper } = setup();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useSetMonitorActive({ successText: "Switched", onSuccess }), {
      wrapper,
    });
    await act(async () => {
      await result.current.mutateAsync({
        monitorId: MID,
        type: "mvd",
        lineId: LINE,
        plantId: PLANT,
        active: false,
      });
    });
    expect(await screen.findByText("Switched")).toBeInTheDocument();
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });
});
