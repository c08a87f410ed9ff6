import {
  FEATURE_FLAGS,
  LANGUAGE_TEXTS,
  type TFeatureFlagKey,
  type TFeatureFlagsResponse,
  type TLanguage,
  type TLanguageBody,
  type TMe,
} from "@linewatch/contracts";
import { api } from "../../api/client";
import {
  errorMessage,
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../api/useResourceMutation";
import { currentLanguage, textsIn } from "../../i18n/language";
import { sessionKeys } from "./keys";
import { useMe } from "./queries";

/** POST /api/auth/logout: whatever the answer, nothing cached stays and no one is signed in. */
export function useLogout(options?: ResourceMutationOptions<null, void>) {
  return useResourceMutation(
    {
      mutationFn: () => api<null>("POST", "/api/auth/logout"),
      invalidate: (qc) => {
        qc.clear();
        qc.setQueryData(sessionKeys.me, null);
      },
      successText: false,
      errorText: false,
    },
    options,
  );
}

/**
 * PUT /api/auth/me/language: the user's interface language (null: the browser's). Once saved, the
 * session's `me` holds it and the frame follows it (RequireAuth); nothing to say on success, the
 * interface speaks the new language.
 */
export function useSaveLanguage(options?: ResourceMutationOptions<null, TLanguage | null>) {
  return useResourceMutation(
    {
      mutationFn: (language) =>
        api<null>("PUT", "/api/auth/me/language", { language } satisfies TLanguageBody),
      invalidate: (qc, language, _data, error) => {
        if (!error) qc.setQueryData<TMe | null>(sessionKeys.me, (me) => (me ? { ...me, language } : me));
      },
      successText: false,
      // Said in the language on show (the choice was not saved, so it did not change).
      errorText: () => textsIn(LANGUAGE_TEXTS, currentLanguage()).saveFailed,
    },
    options,
  );
}

/** POST /api/auth/switch-customer (provider staff). */
export function useSwitchCustomer(options?: ResourceMutationOptions<TMe, string>) {
  return useResourceMutation(
    {
      mutationFn: (customerId) => api<TMe>("POST", "/api/auth/switch-customer", { customerId }),
      invalidate: async (qc, _customerId, me) => {
        if (!me) return;
        qc.setQueryData(sessionKeys.me, me);
        // Everything else cached belongs to the previous customer: reset it, and the screens on
        // show load the new customer's data.
        await qc.resetQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.me[0] });
      },
      successText: false,
      errorText: false,
    },
    options,
  );
}

type SetFlagVars = { key: TFeatureFlagKey; enabled: boolean };

/** PUT /api/feature-flags/{key} (provider staff): the customer's flags as they now are, said in a snackbar. */
export function useSetFeatureFlag(options?: ResourceMutationOptions<TFeatureFlagsResponse, SetFlagVars>) {
  const customerId = useMe().data?.customer.id;
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TFeatureFlagsResponse>("PUT", `/api/feature-flags/${v.key}`, { enabled: v.enabled }),
      invalidate: (qc, _v, flags) => {
        if (flags) qc.setQueryData([...sessionKeys.flags, customerId], flags);
      },
      successText: (_flags, v) => `${FEATURE_FLAGS[v.key].label} ${v.enabled ? "on" : "off"}`,
      errorText: errorMessage,
    },
    options,
  );
}
