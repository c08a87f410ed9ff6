import {
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  LOCATION_UNASSIGNED,
  type TLocationConfig,
  type TPlant,
  USER_MESSAGES,
} from "@linewatch/contracts";

/**
 * One string per location choice, for selects: `plant:<id>`, CORPORATE, UNASSIGNED or the
 * provider's location (requirements.md monitor-forms §2 "User location selector").
 */
export type LocationKey = string;
export type LocationOption = { key: LocationKey; label: string; disabled?: boolean };

const PLANT_PREFIX = "plant:";
export const plantKey = (plantId: string): LocationKey => `${PLANT_PREFIX}${plantId}`;

/** The choice a stored location stands for; both null is Unassigned. */
export function locationKeyOf(loc: TLocationConfig): LocationKey {
  if (loc.locationPlantId) return plantKey(loc.locationPlantId);
  if (loc.locationName == null || loc.locationName === LOCATION_UNASSIGNED) return LOCATION_UNASSIGNED;
  return loc.locationName;
}

/** The PATCH / add-user body for a choice: both null for Unassigned (requirements.md monitor-forms §7). */
export function locationBodyOf(key: LocationKey, plants: TPlant[]): TLocationConfig {
  if (key.startsWith(PLANT_PREFIX)) {
    const id = key.slice(PLANT_PREFIX.length);
    return { locationPlantId: id, locationName: plants.find((p) => p.id === id)?.name ?? null };
  }
  if (key === LOCATION_UNASSIGNED) return { locationName: null, locationPlantId: null };
  return { locationName: key, locationPlantId: null };
}

/**
 * What a viewer may pick for a row (requirements.md monitor-forms §6): the customer's plants, Corporate and
 * Unassigned; the provider location only for provider staff. A provider-staff row shows a viewer
 * who is not staff only the provider location, read-only. A stored value the viewer may not pick
 * stays visible as a disabled option.
 */
export function locationOptions(p: {
  plants: TPlant[];
  viewerIsProviderStaff: boolean;
  rowIsProviderStaff?: boolean;
  current?: TLocationConfig;
}): { options: LocationOption[]; isReadOnly: boolean } {
  const provider: LocationOption = { key: LOCATION_PROVIDER, label: USER_MESSAGES.provider };
  if (p.rowIsProviderStaff && !p.viewerIsProviderStaff) {
    return { options: [{ ...provider, disabled: true }], isReadOnly: true };
  }
  const options: LocationOption[] = [
    ...p.plants.map((pl) => ({ key: plantKey(pl.id), label: pl.name })),
    { key: LOCATION_CORPORATE, label: USER_MESSAGES.corporate },
    { key: LOCATION_UNASSIGNED, label: USER_MESSAGES.unassigned },
  ];
  if (p.viewerIsProviderStaff) options.push(provider);
  const current = p.current ? locationKeyOf(p.current) : undefined;
  if (current && !options.some((o) => o.key === current)) {
    const label =
      current === LOCATION_PROVIDER ? USER_MESSAGES.provider : (p.current?.locationName ?? current);
    options.push({ key: current, label, disabled: true });
  }
  return { options, isReadOnly: false };
}

export const locationLabel = (key: LocationKey, options: LocationOption[]) =>
  options.find((o) => o.key === key)?.label ?? "";
