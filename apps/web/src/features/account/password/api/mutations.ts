import { AUTH_MESSAGES, type TChangePasswordBody } from "@linewatch/contracts";
import { api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { currentLanguage, textsIn } from "../../../../shared/i18n/language";

/**
 * POST /api/auth/me/password. The user's other sessions end; this one stays, so nothing cached
 * changes. Errors are shown by the dialog (a wrong current password under its field).
 */
export function useChangePassword(options?: ResourceMutationOptions<null, TChangePasswordBody>) {
  return useResourceMutation(
    {
      mutationFn: (body) => api<null>("POST", "/api/auth/me/password", body),
      invalidate: () => undefined,
      successText: () => textsIn(AUTH_MESSAGES, currentLanguage()).passwordChanged,
      errorText: false,
    },
    options,
  );
}
