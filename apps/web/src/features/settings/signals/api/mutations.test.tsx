import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { ReactNode } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnackbarProvider } from "../../../../shared/ui/SnackbarProvider";
import { mockApi } from "../../../../test/mockApi";
import { signalKeys } from "../../../signals/api/keys";
import { useSaveResultClassifications } from "./mutations";

const server = setupServer(
  mockApi.patch("*/api/signal/result-classifications", () => new HttpResponse(null, { status: 204 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("saving result classifications", () => {
  it("refreshes every cached classification (the monitor form's Result select) and the line's signals", async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const monitorFormKey = signalKeys.associatedClassifications(["m1", "m2"]);
    const treeKey = signalKeys.active("line-1");
    const otherLine = signalKeys.active("line-2");
    for (const key of [monitorFormKey, treeKey, otherLine]) qc.setQueryData(key, {});
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={qc}>
        <SnackbarProvider>{children}</SnackbarProvider>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => useSaveResultClassifications(), { wrapper });
    await act(() =>
      result.current.mutateAsync({
        lineId: "line-1",
        body: {},
        texts: { successText: "saved", errorText: "failed" },
      }),
    );
    await waitFor(() => expect(qc.getQueryState(monitorFormKey)?.isInvalidated).toBe(true));
    expect(qc.getQueryState(treeKey)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(otherLine)?.isInvalidated).toBe(false);
  });
});
