import {
  type QueryClient,
  type UseMutationOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { useOptionalSnackbar } from "../ui/SnackbarProvider";

// Every mutation hook of the web app has this one shape (docs/conventions.md "Web", after Supabase Studio's
// data/<resource>/ hooks): the call, what it changes (the keys to invalidate once it settles), its
// default snackbar texts, then the caller's options last, so a page words its own texts (or shows
// none and a dialog instead) and adds its own callbacks.

/** A snackbar: its text (success unless said), or false for none. */
export type SnackbarText =
  | string
  | false
  | { text: string; severity: "success" | "error" | "info" | "warning" };

/** A snackbar text, or how to word it from the answer (or error) and the call's variables. */
export type MutationText<TArg, TVars> = SnackbarText | ((arg: TArg, vars: TVars) => SnackbarText);

/** Options a caller may pass to every mutation hook. */
export type ResourceMutationOptions<TData, TVars> = Omit<
  UseMutationOptions<TData, Error, TVars>,
  "mutationFn"
> & {
  /** The success snackbar; false shows none. Default: the hook's (the spec's message for the change). */
  successText?: MutationText<TData, TVars>;
  /** The error snackbar; false shows none (the caller shows a dialog). Default: the hook's. */
  errorText?: MutationText<Error, TVars>;
  /** How long the snackbars stay (default: the snackbar constant, 3300 ms). */
  snackbarMs?: number;
};

/** What a hook defines: its call, the keys it changes, its default texts. */
export type ResourceMutation<TData, TVars> = {
  mutationFn: (vars: TVars) => Promise<TData>;
  /**
   * Updates and invalidates what the change touched, once the call settles: `error` is null when it
   * succeeded (an empty answer's data is undefined too). A promise it returns keeps the mutation
   * pending until the data is fetched again.
   */
  invalidate: (qc: QueryClient, vars: TVars, data: TData | undefined, error: Error | null) => unknown;
  successText: MutationText<TData, TVars>;
  errorText: MutationText<Error, TVars>;
};

const textOf = <A, V>(t: MutationText<A, V>, a: A, v: V): SnackbarText =>
  typeof t === "function" ? t(a, v) : t;

/** The error's own message (the server's words, ApiError), or false when it has none. */
export const errorMessage = (err: Error): SnackbarText => err.message || false;

/** One mutation: the hook's definition, then the caller's options. */
export function useResourceMutation<TData, TVars>(
  def: ResourceMutation<TData, TVars>,
  options: ResourceMutationOptions<TData, TVars> = {},
) {
  const qc = useQueryClient();
  // A hook whose texts are all false shows nothing and needs no provider (a component test renders
  // it bare); one that shows a text without a provider is a mistake, said when it happens.
  const snackbar = useOptionalSnackbar();
  const { successText, errorText, snackbarMs, onSuccess, onError, onSettled, ...rest } = options;
  const show = (text: SnackbarText, fallback: "success" | "error") => {
    if (text === false || text === "") return;
    const { text: t, severity } = typeof text === "string" ? { text, severity: fallback } : text;
    if (!snackbar) throw new Error(`a mutation's snackbar "${t}" needs a SnackbarProvider`);
    snackbar(t, { severity, durationMs: snackbarMs });
  };
  return useMutation<TData, Error, TVars>({
    ...rest,
    mutationFn: def.mutationFn,
    onSuccess: (...args) => {
      show(textOf(successText ?? def.successText, args[0], args[1]), "success");
      return onSuccess?.(...args);
    },
    onError: (...args) => {
      show(textOf(errorText ?? def.errorText, args[0], args[1]), "error");
      return onError?.(...args);
    },
    onSettled: (...args) =>
      Promise.all([def.invalidate(qc, args[2], args[0], args[1]), onSettled?.(...args)]),
  });
}
