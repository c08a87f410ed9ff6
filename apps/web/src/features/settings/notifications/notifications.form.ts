import { ETQ_MESSAGES, type TRelianceConfig, type TRelianceConfigBody } from "@linewatch/contracts";

// The ETQ Reliance form's rules (requirements.md settings §5 "ETQ form"): all four fields are required and a
// field says 'required' once touched and empty. The client secret is write-only: a stored one is
// shown masked and an empty Client Secret on edit keeps it (docs/spec-deviations.md).

export type TEtqFormValues = {
  apiHost: string;
  clientId: string;
  clientSecret: string;
  tokenEndpoint: string;
};

export const ETQ_FIELDS: { name: keyof TEtqFormValues; label: string }[] = [
  { name: "apiHost", label: "Reliance API Host" },
  { name: "clientId", label: "Client ID" },
  { name: "clientSecret", label: "Client Secret" },
  { name: "tokenEndpoint", label: "Token URL" },
];

/** Shown in place of a stored secret in view mode. */
export const MASKED_SECRET = "••••••••";

export const etqFormDefaults = (config: TRelianceConfig | null): TEtqFormValues => ({
  apiHost: config?.apiHost ?? "",
  clientId: config?.clientId ?? "",
  // Never sent back by the server; typing one replaces the stored one.
  clientSecret: "",
  tokenEndpoint: config?.tokenEndpoint ?? "",
});

/** Each field's message ('required'), or none; the secret may stay empty when one is stored. */
export function etqFormErrors(
  v: TEtqFormValues,
  hasStoredSecret: boolean,
): Partial<Record<keyof TEtqFormValues, string>> {
  const errors: Partial<Record<keyof TEtqFormValues, string>> = {};
  for (const { name } of ETQ_FIELDS) {
    if (name === "clientSecret" && hasStoredSecret) continue;
    if (!v[name].trim()) errors[name] = ETQ_MESSAGES.required;
  }
  return errors;
}

/** The POST body: trimmed, the secret left out when it was left empty over a stored one. */
export function etqFormBody(v: TEtqFormValues): TRelianceConfigBody {
  const secret = v.clientSecret.trim();
  return {
    apiHost: v.apiHost.trim(),
    clientId: v.clientId.trim(),
    tokenEndpoint: v.tokenEndpoint.trim(),
    ...(secret ? { clientSecret: secret } : {}),
  };
}
