import {
  PLANT_MESSAGES,
  plantNameError,
  type TCreatePlantBody,
  type TFieldProblem,
  timeZoneError,
} from "@linewatch/contracts";
import type { FieldErrors, Resolver } from "react-hook-form";
import { ApiError } from "../../api/client";

/** The form's values: the create body's fields (packages/contracts), as typed. */
export type PlantFormValues = Pick<TCreatePlantBody, "name" | "timeZone">;
export type PlantField = keyof PlantFormValues;

/** The browser's own time zone, a good first guess for a plant set up from it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export const plantFormDefaults = (p?: PlantFormValues): PlantFormValues =>
  p ? { name: p.name, timeZone: p.timeZone } : { name: "", timeZone: browserTimeZone() };

/**
 * The contract's rules (plant-texts: plantNameError, timeZoneError), without zod: the home page's
 * first-plant form uses this too and stays light (issue #17).
 */
export const plantFormResolver: Resolver<PlantFormValues, unknown, TCreatePlantBody> = async (values) => {
  const errors: FieldErrors<PlantFormValues> = {};
  const nameError = plantNameError(values.name ?? "");
  const zoneError = timeZoneError(values.timeZone ?? "");
  if (nameError) errors.name = { type: "validate", message: nameError };
  if (zoneError) errors.timeZone = { type: "validate", message: zoneError };
  if (nameError || zoneError) return { values: {} as Record<string, never>, errors };
  return { values: { name: values.name.trim(), timeZone: values.timeZone.trim() }, errors: {} };
};

const PLANT_FIELDS: readonly PlantField[] = ["name", "timeZone"];

/**
 * Where the server's refusal shows: a taken name (409) under Name, a field its validation refused
 * (the 400's `fields`) under that field with the contract's message, else above the form.
 */
export function placePlantError(err: unknown): { field?: PlantField; message: string } {
  const message = err instanceof Error ? err.message : PLANT_MESSAGES.notFound;
  if (err instanceof ApiError && err.status === 409) return { field: "name", message };
  if (err instanceof ApiError && err.status === 400 && Array.isArray(err.body.fields)) {
    for (const p of err.body.fields as TFieldProblem[]) {
      const field = PLANT_FIELDS.find((f) => f === p.field);
      if (p.in === "body" && field && p.message) return { field, message: p.message };
    }
  }
  return { message };
}
