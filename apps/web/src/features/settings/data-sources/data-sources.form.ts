import {
  DATA_SOURCE_MESSAGES,
  type TCreateDataSourceBody,
  ZCreateDataSourceBody,
} from "@linewatch/contracts";
import { ApiError } from "../../../shared/api/client";

/** The add dialog validates with the route's own schema (trimmed, bounded, MQTT topic filter). */
export const dataSourceFormSchema = ZCreateDataSourceBody;
/** What the fields hold; the schema's output (trimmed) has the same shape. */
export type DataSourceFormInput = TCreateDataSourceBody;
export const dataSourceFormDefaults: DataSourceFormInput = { name: "", topic: "" };

export type DataSourceField = keyof DataSourceFormInput;

/**
 * Where a failed create belongs in the dialog: a taken name (409) under Name, the server's
 * "body.<field>: message" validation parts under their fields, anything else above the form.
 */
export function placeCreateError(err: unknown): {
  fields: Partial<Record<DataSourceField, string>>;
  form?: string;
} {
  if (!(err instanceof ApiError)) {
    return { fields: {}, form: err instanceof Error ? err.message : String(err) };
  }
  if (err.status === 409) return { fields: { name: DATA_SOURCE_MESSAGES.nameTaken } };
  const fields: Partial<Record<DataSourceField, string>> = {};
  const rest: string[] = [];
  if (err.status === 400) {
    for (const part of err.message.split("; ")) {
      const m = /^body\.(name|topic): (.+)$/.exec(part);
      if (m?.[1] && m[2]) fields[m[1] as DataSourceField] ??= m[2];
      else rest.push(part);
    }
  } else {
    rest.push(err.message);
  }
  return { fields, form: rest.length > 0 ? rest.join("; ") : undefined };
}
