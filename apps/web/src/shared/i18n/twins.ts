import type { Translation } from "@linewatch/contracts";

/** A language's catalogue chunk: pairs of an English catalogue and its twin. */
export type TTwinPairs = ReadonlyArray<readonly [object, object]>;

/** Pairs a catalogue with its twin, checked: the twin must be a complete Translation of it. */
export const twin = <T extends object>(en: T, other: Translation<T>) => [en, other as object] as const;
