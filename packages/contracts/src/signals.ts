import { z } from "zod";
import { ZId, zString } from "./common.js";
import { ZQualityCharacteristic, ZSignalEntityType, ZSignalLimitSide } from "./domain.js";

// Line signals as the monitor forms read them (spec settings §3 "Signal", "Signal group";
// spec monitor-forms §2 "Signals tab", §7).

export const ZSignal = z.object({
  id: ZId,
  name: zString(),
  friendlyName: zString().nullable(),
  entityType: ZSignalEntityType,
  isSignalActive: z.boolean(),
  qualityCharacteristic: ZQualityCharacteristic,
  stationName: zString(),
  /** Associated signals' ids: a measurement's upper limit, lower limit and result. */
  upperLimit: ZId.nullable(),
  lowerLimit: ZId.nullable(),
  result: ZId.nullable(),
  singleSide: ZSignalLimitSide.nullable(),
});
export type TSignal = z.infer<typeof ZSignal>;

export const ZStation = z.object({
  id: ZId,
  name: zString(),
  final: z.boolean(),
  signals: z.array(ZSignal),
});
export type TStation = z.infer<typeof ZStation>;
export const ZStationList = z.array(ZStation);

/** `?active=true` leaves only active signals (the monitor form's tree shows only those). */
export const ZLineSignalsQuery = z.strictObject({
  active: z.enum(["true", "false"]).optional(),
});

export const ZSignalGroup = z.object({
  signalGroupUuid: ZId,
  signalGroupName: zString(),
  signalUuids: z.array(ZId),
});
export type TSignalGroup = z.infer<typeof ZSignalGroup>;
export const ZSignalGroupList = z.array(ZSignalGroup);
export const ZSignalGroupsBody = z.strictObject({ customerUuid: ZId, plantUuid: ZId, lineUuid: ZId });

/** A part attribute (a PART_ATTRIBUTE signal) with the values seen for it. */
export const ZPartAttribute = z.object({
  attributeUuid: ZId,
  attributeName: zString(),
  stationName: zString(),
  isSignalActive: z.boolean(),
  attributeValues: z.array(zString()),
});
export type TPartAttribute = z.infer<typeof ZPartAttribute>;
export const ZPartAttributeList = z.array(ZPartAttribute);

export const ZModelNumber = z.object({ value: zString(), isChallenge: z.boolean() });
export type TModelNumber = z.infer<typeof ZModelNumber>;
export const ZModelNumberList = z.array(ZModelNumber);

export const ZClassificationEntry = z.object({ value: zString(), failureMode: zString().nullable() });
export const ZResultClassifications = z.object({
  pass: z.array(ZClassificationEntry),
  fail: z.array(ZClassificationEntry),
  other: z.array(ZClassificationEntry),
});
export type TResultClassifications = z.infer<typeof ZResultClassifications>;

/** Body: signal ids. Answer: by signal id, the classifications of its result signal. */
export const ZAssociatedResultClassificationsBody = z.array(ZId).min(1).max(1000);
export const ZAssociatedResultClassifications = z.record(
  zString(),
  z.object({ associatedResultClassifications: ZResultClassifications }),
);
export type TAssociatedResultClassifications = z.infer<typeof ZAssociatedResultClassifications>;

export const SIGNAL_MESSAGES = {
  notFound: "Signal not found",
  groupNotFound: "Signal group not found",
} as const;
