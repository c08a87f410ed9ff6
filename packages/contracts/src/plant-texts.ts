// The plants' texts, bounds and time-zone rule, apart from plants.ts's schemas: the home page's
// first-plant form and the Settings → Plants page show and check these, so those pages load
// without zod (issue #17: a module goes whole into the chunk of the page that first uses it).

/** A plant's name: trimmed, 1 to PLANT_NAME_MAX characters, unique per customer ignoring case. */
export const PLANT_NAME_MAX = 100;

/**
 * The canonical IANA name of a time zone (any letter case: "europe/berlin" → "Europe/Berlin"),
 * or null when the runtime knows no such zone. The runtime's own time-zone data decides, not a
 * list of ours: `Intl.DateTimeFormat` refuses an unknown zone. Offsets ("+01:00", which newer
 * runtimes accept as a zone) are not IANA names and are refused here.
 */
export function canonicalTimeZone(value: string): string | null {
  const tz = value.trim();
  if (!tz || /^[+-]/.test(tz) || /^(?:utc|gmt)[+-]/i.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Whether the value is an IANA time zone the runtime knows (in its canonical spelling or not). */
export const isIanaTimeZone = (value: string): boolean => canonicalTimeZone(value) !== null;

/** The time zones a form offers: the runtime's list, UTC included, sorted. */
export function timeZoneOptions(): string[] {
  const supported =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  return [...new Set([...supported, "UTC"])].sort();
}

/** Server answers and form checks about plants (not in the spec; docs/architecture.md "Server"). */
export const PLANT_MESSAGES = {
  notFound: "Plant not found",
  nameRequired: "Plant name is required",
  nameTooLong: `Plant name must be at most ${PLANT_NAME_MAX} characters`,
  nameTaken: "A plant with this name already exists for this customer",
  timeZoneRequired: "Time zone is required",
  timeZoneInvalid: "Unknown time zone: choose an IANA name such as Europe/Berlin",
  nothingToChange: "Give a name, a time zone or the active flag to change",
  /** Deactivation refused (issue 28 §1): the reason names what to do first. */
  hasActiveLines: (n: number) =>
    `The plant has ${n} active ${n === 1 ? "line" : "lines"}: deactivate ${n === 1 ? "it" : "them"} in Settings → Line Management first`,
  /** A line of a deactivated plant cannot be activated (Line Management, PATCH /api/lines/{id}). */
  lineOfDeactivatedPlant: (plant: string) =>
    `The plant ${plant} is deactivated: reactivate it in Settings → Plants before activating its lines`,
} as const;

/** The name's problem, or null: the same rule the contract's schema applies. */
export function plantNameError(value: string): string | null {
  const name = value.trim();
  if (!name) return PLANT_MESSAGES.nameRequired;
  if (name.length > PLANT_NAME_MAX) return PLANT_MESSAGES.nameTooLong;
  return null;
}

/** The time zone's problem, or null. */
export function timeZoneError(value: string): string | null {
  if (!value.trim()) return PLANT_MESSAGES.timeZoneRequired;
  return isIanaTimeZone(value) ? null : PLANT_MESSAGES.timeZoneInvalid;
}

/** Words of Settings → Plants and of the first-plant form (not in the spec). */
export const PLANT_TEXTS = {
  menuItem: "Plants",
  title: "Plants",
  add: "Add Plant",
  addTitle: "Add plant",
  editTitle: "Edit plant",
  edit: "Edit",
  name: "Name",
  timeZone: "Time zone",
  active: "Active",
  yes: "Yes",
  no: "No",
  actions: "Actions",
  save: "Save",
  cancel: "Cancel",
  create: "Create plant",
  deactivate: "Deactivate",
  reactivate: "Reactivate",
  deactivateTitle: (name: string) => `Deactivate ${name}?`,
  deactivateText:
    "A deactivated plant is no longer offered in the top bar. Its lines, monitors and records are kept, and an administrator can reactivate it here.",
  reactivateTitle: (name: string) => `Reactivate ${name}?`,
  reactivateText: "The plant is offered in the top bar again.",
  empty: "No plants yet. Add the first one.",
  errorLoading: "Error Loading Data",
  retry: "Retry",
  created: "Plant created",
  saved: "Plant saved",
  deactivated: "Plant deactivated",
  reactivated: "Plant reactivated",
  saveError: "The plant could not be saved",
  discardTitle: "Discard Changes?",
  discardText: "You have unsaved changes, do you want to discard?",
  discardExit: "Exit",
  discardContinue: "Continue Editing",
  /** Home, a customer with no plant (issue 28 §1: never a dead end). */
  firstPlantTitle: "Set up your first plant",
  firstPlantIntro:
    "No plants are set up for this customer yet. Create the first one: its lines, data sources and monitors belong to it.",
  /** The first-plant form when every plant of the customer is deactivated. */
  onlyInactive: (n: number) =>
    n === 1
      ? "The one plant of this customer is deactivated: reactivate it in Settings → Plants, or create another here."
      : `All ${n} plants of this customer are deactivated: reactivate one in Settings → Plants, or create another here.`,
  openPlantsSettings: "Open Settings → Plants",
  askAdministrator: "Ask an administrator of your company to set up a plant.",
  timeZoneHelp: "IANA name, e.g. Europe/Berlin",
} as const;
