import {
  API_TOKEN_MESSAGES,
  type TApiToken,
  type TCreateApiTokenBody,
  type TCreateApiTokenResponse,
} from "@linewatch/contracts";
import { api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { currentLanguage, localizeMessage, textsIn } from "../../../../shared/i18n/language";
import { apiTokenKeys } from "./keys";

/** The server's message in the interface's language (its own words when it is not a catalogue text). */
const messageOf = (err: Error) => localizeMessage(API_TOKEN_MESSAGES, err.message) || false;

/** POST /api/auth/tokens: the secret is in this answer only; the dialog shows it once. */
export function useCreateApiToken(
  options?: ResourceMutationOptions<TCreateApiTokenResponse, TCreateApiTokenBody>,
) {
  return useResourceMutation(
    {
      mutationFn: (body) => api<TCreateApiTokenResponse>("POST", "/api/auth/tokens", body),
      invalidate: (qc) => qc.invalidateQueries({ queryKey: apiTokenKeys.all }),
      successText: () => textsIn(API_TOKEN_MESSAGES, currentLanguage()).created,
      errorText: messageOf,
    },
    options,
  );
}

/** DELETE /api/auth/tokens/{tokenId}: the token stops working at once. */
export function useRevokeApiToken(options?: ResourceMutationOptions<null, TApiToken>) {
  return useResourceMutation(
    {
      mutationFn: (token) => api<null>("DELETE", `/api/auth/tokens/${encodeURIComponent(token.id)}`),
      invalidate: (qc) => qc.invalidateQueries({ queryKey: apiTokenKeys.all }),
      successText: () => textsIn(API_TOKEN_MESSAGES, currentLanguage()).revoked,
      errorText: messageOf,
    },
    options,
  );
}
