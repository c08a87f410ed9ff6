import type { TCreatePlantBody } from "@linewatch/contracts";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type PlantFormValues, placePlantError, plantFormDefaults, plantFormResolver } from "./plant-form";

/**
 * A plant's name and time zone as a form (the first-plant form on Home, the add/edit dialog in
 * Settings): checked as the user types after the first blur, then sent; the server's refusal shows
 * under its field (placePlantError), focused, or above the form as `formError`.
 */
export function usePlantForm(send: (body: TCreatePlantBody) => Promise<unknown>, plant?: PlantFormValues) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PlantFormValues, unknown, TCreatePlantBody>({
    resolver: plantFormResolver,
    defaultValues: plantFormDefaults(plant),
    mode: "onTouched",
  });
  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      await send(body);
    } catch (err) {
      const placed = placePlantError(err);
      if (placed.field) {
        form.setError(placed.field, { type: "server", message: placed.message });
        form.setFocus(placed.field);
      } else setFormError(placed.message);
    }
  });
  return { form, submit, formError };
}
