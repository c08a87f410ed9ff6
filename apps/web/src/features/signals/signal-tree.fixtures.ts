import type { TSignal, TSignalEntityType, TSignalGroup, TStation } from "@linewatch/contracts";

// Line signals for the Signals tab's tests and its benchmark: stations with measurements, part
// attributes and the limits/results a real line carries, with stable ids.

export const fixtureId = (prefix: number, n: number) =>
  `00000000-0000-4000-${(0x8000 + prefix).toString(16)}-${n.toString(16).padStart(12, "0")}`;

const TEXT_TYPES = new Set<TSignalEntityType>(["RESULT", "PART_ATTRIBUTE", "COMPONENT_ID"]);

export function buildSignal(p: Partial<TSignal> & Pick<TSignal, "id" | "name" | "stationName">): TSignal {
  return {
    friendlyName: null,
    entityType: "MEASUREMENT",
    isSignalActive: true,
    qualityCharacteristic: "NONE",
    upperLimit: null,
    lowerLimit: null,
    result: null,
    singleSide: null,
    hasCapLimits: false,
    ...p,
    storage: p.storage ?? (TEXT_TYPES.has(p.entityType ?? "MEASUREMENT") ? "text" : "num"),
  };
}

export function buildStation(
  id: string,
  name: string,
  signals: Omit<Parameters<typeof buildSignal>[0], "stationName">[],
): TStation {
  return {
    id,
    name,
    final: false,
    isDefault: false,
    signals: signals.map((s) => buildSignal({ ...s, stationName: name })),
  };
}

const QUANTITIES = [
  "torque",
  "angle",
  "pressure",
  "temperature",
  "leak_rate",
  "force",
  "depth",
  "diameter",
  "voltage",
  "flow",
];

/** Of every 50 signals of a station: 44 measurements, 2 part attributes, 2 limits, a result, a component id. */
const typeAt = (i: number): TSignalEntityType => {
  const k = i % 50;
  if (k < 44) return "MEASUREMENT";
  if (k < 46) return "PART_ATTRIBUTE";
  if (k === 46) return "UPPER_LIMIT";
  if (k === 47) return "LOWER_LIMIT";
  if (k === 48) return "RESULT";
  return "COMPONENT_ID";
};

/** `total` active signals spread over `stationCount` stations ("OP010 Station" …). */
export function buildLargeLine(total: number, stationCount: number): TStation[] {
  const perStation = Math.ceil(total / stationCount);
  const stations: TStation[] = [];
  let n = 0;
  for (let s = 0; s < stationCount && n < total; s++) {
    const name = `OP${String((s + 1) * 10).padStart(3, "0")} Station`;
    const signals: TSignal[] = [];
    for (let i = 0; i < perStation && n < total; i++, n++) {
      const q = QUANTITIES[i % QUANTITIES.length] as string;
      const entityType = typeAt(i);
      signals.push(
        buildSignal({
          id: fixtureId(2, n),
          name:
            entityType === "MEASUREMENT"
              ? `${q}_${s + 1}_${i + 1}`
              : `${entityType.toLowerCase()}_${s + 1}_${i + 1}`,
          friendlyName: i % 3 === 0 ? `${q.replace("_", " ")} ${s + 1}.${i + 1}` : null,
          entityType,
          stationName: name,
        }),
      );
    }
    stations.push({ id: fixtureId(1, s), name, final: s === stationCount - 1, isDefault: false, signals });
  }
  return stations;
}

export function buildGroup(id: string, name: string, signalUuids: string[]): TSignalGroup {
  return { signalGroupUuid: id, signalGroupName: name, signalUuids };
}
