import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { SnackbarProvider } from "../ui/SnackbarProvider";
import { type ResourceMutation, useResourceMutation } from "./useResourceMutation";

// The one shape of every mutation hook: its call, the keys it changes, its texts, the caller's
// options last.

const client = () => new QueryClient({ defaultOptions: { mutations: { retry: false } } });

function wrapperOf(qc: QueryClient, withSnackbar = true) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      {withSnackbar ? <SnackbarProvider>{children}</SnackbarProvider> : children}
    </QueryClientProvider>
  );
}

type Vars = { name: string };

function definition(overrides: Partial<ResourceMutation<{ id: string }, Vars>> = {}) {
  const invalidate = vi.fn<ResourceMutation<{ id: string }, Vars>["invalidate"]>();
  const def: ResourceMutation<{ id: string }, Vars> = {
    mutationFn: async (vars) => ({ id: `id-of-${vars.name}` }),
    invalidate,
    successText: (data) => `Saved ${data.id}`,
    errorText: (err) => `Could not save: ${err.message}`,
    ...overrides,
  };
  return { def, invalidate };
}

describe("useResourceMutation", () => {
  it("shows the hook's success text and invalidates with the answer and no error", async () => {
    const qc = client();
    const { def, invalidate } = definition();
    const { result } = renderHook(() => useResourceMutation(def), { wrapper: wrapperOf(qc) });
    await act(() => result.current.mutateAsync({ name: "Line 1" }));
    expect(await screen.findByText("Saved id-of-Line 1")).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith(qc, { name: "Line 1" }, { id: "id-of-Line 1" }, null);
  });

  it("shows the hook's error text and still invalidates, with the error", async () => {
    const qc = client();
    const failure = new Error("name taken");
    const { def, invalidate } = definition({
      mutationFn: async () => {
        throw failure;
      },
    });
    const { result } = renderHook(() => useResourceMutation(def), { wrapper: wrapperOf(qc) });
    await act(() => result.current.mutateAsync({ name: "Line 1" }).catch(() => undefined));
    expect(await screen.findByText("Could not save: name taken")).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith(qc, { name: "Line 1" }, undefined, failure);
  });

  it("lets the caller word its own text, show none, and add its own callbacks after the hook's", async () => {
    const qc = client();
    const { def } = definition();
    const onSuccess = vi.fn();
    const { result } = renderHook(
      () =>
        useResourceMutation(def, {
          successText: (d) => ({ text: `Created ${d.id}`, severity: "info" }),
          onSuccess,
        }),
      { wrapper: wrapperOf(qc) },
    );
    await act(() => result.current.mutateAsync({ name: "A" }));
    expect(await screen.findByText("Created id-of-A")).toBeInTheDocument();
    expect(screen.queryByText("Saved id-of-A")).not.toBeInTheDocument();
    expect(onSuccess).toHaveBeenCalledWith({ id: "id-of-A" }, { name: "A" }, undefined, expect.anything());
  });

  it("needs no snackbar provider when it shows no text", async () => {
    const qc = client();
    const { def, invalidate } = definition();
    const { result } = renderHook(() => useResourceMutation(def, { successText: false }), {
      wrapper: wrapperOf(qc, false),
    });
    await expect(act(() => result.current.mutateAsync({ name: "B" }))).resolves.toEqual({ id: "id-of-B" });
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it("fails the change, naming the text, when it would show one without a snackbar provider", async () => {
    const qc = client();
    const { def } = definition({ errorText: false });
    const { result } = renderHook(() => useResourceMutation(def), { wrapper: wrapperOf(qc, false) });
    await expect(act(() => result.current.mutateAsync({ name: "C" }))).rejects.toThrow(
      'a mutation\'s snackbar "Saved id-of-C" needs a SnackbarProvider',
    );
  });

  it("stays pending until what it invalidates is fetched again", async () => {
    const qc = client();
    let refetched: () => void = () => undefined;
    const { def } = definition({
      invalidate: () =>
        new Promise<void>((resolve) => {
          refetched = resolve;
        }),
    });
    const { result } = renderHook(() => useResourceMutation(def), { wrapper: wrapperOf(qc) });
    act(() => result.current.mutate({ name: "D" }));
    await screen.findByText("Saved id-of-D");
    expect(result.current.isPending).toBe(true);
    act(() => refetched());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
  });
});
