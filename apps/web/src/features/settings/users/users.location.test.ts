import {
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  LOCATION_UNASSIGNED,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { locationBodyOf, locationKeyOf, locationOptions, plantKey } from "./users.location";

const detroit = {
  id: "00000000-0000-4000-8000-00000000000a",
  name: "Detroit",
  timeZone: "America/Detroit",
  active: true,
};
const plants = [detroit];
const keys = (o: ReturnType<typeof locationOptions>) => o.options.map((x) => x.key);

describe("user location (requirements.md monitor-forms §6)", () => {
  it("offers plants, Corporate and Unassigned; the provider location only to provider staff", () => {
    const base = [plantKey(detroit.id), LOCATION_CORPORATE, LOCATION_UNASSIGNED];
    expect(keys(locationOptions({ plants, viewerIsProviderStaff: false }))).toEqual(base);
    expect(keys(locationOptions({ plants, viewerIsProviderStaff: true }))).toEqual([
      ...base,
      LOCATION_PROVIDER,
    ]);
  });

  it("shows a provider-staff row to other viewers as the provider location only, read-only", () => {
    const o = locationOptions({ plants, viewerIsProviderStaff: false, rowIsProviderStaff: true });
    expect(o).toEqual({
      options: [{ key: LOCATION_PROVIDER, label: USER_MESSAGES.provider, disabled: true }],
      isReadOnly: true,
    });
    expect(
      locationOptions({ plants, viewerIsProviderStaff: true, rowIsProviderStaff: true }).isReadOnly,
    ).toBe(false);
  });

  it("keeps a stored value the viewer may not pick visible, disabled", () => {
    const o = locationOptions({
      plants,
      viewerIsProviderStaff: false,
      current: { locationName: LOCATION_PROVIDER, locationPlantId: null },
    });
    expect(o.options.at(-1)).toEqual({
      key: LOCATION_PROVIDER,
      label: USER_MESSAGES.provider,
      disabled: true,
    });
  });

  it("maps choices to the PATCH body: both null for Unassigned, the plant's name with its id", () => {
    expect(locationBodyOf(LOCATION_UNASSIGNED, plants)).toEqual({
      locationName: null,
      locationPlantId: null,
    });
    expect(locationBodyOf(LOCATION_CORPORATE, plants)).toEqual({
      locationName: "CORPORATE",
      locationPlantId: null,
    });
    expect(locationBodyOf(plantKey(detroit.id), plants)).toEqual({
      locationName: "Detroit",
      locationPlantId: detroit.id,
    });
    expect(locationKeyOf({ locationName: null, locationPlantId: null })).toBe(LOCATION_UNASSIGNED);
    expect(locationKeyOf({ locationName: "Detroit", locationPlantId: detroit.id })).toBe(
      plantKey(detroit.id),
    );
  });
});
