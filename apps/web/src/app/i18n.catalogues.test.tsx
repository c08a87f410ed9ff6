import {
  ALERT_MESSAGES,
  ALERT_TEXTS,
  AUTH_TEXTS,
  defaultFeatureFlags,
  LANGUAGE_TEXTS,
  LINE_MANAGEMENT_TEXTS,
  LINE_OVERVIEW_TEXTS,
  SETTINGS_MENU_TEXTS,
  SETTINGS_MESSAGES,
  SHELL_TEXTS,
  type TAlert,
  type TAlertDetail,
  type TLanguage,
  type TLineEvaluationSeries,
  type TMonitor,
  type TPlantOverview,
} from "@linewatch/contracts";
import { deDE } from "@mui/material/locale";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DE_TWINS } from "../shared/i18n/de";
import { setLanguage, textsIn } from "../shared/i18n/language";
import { installResizeObserver, testLine, testMe, testMonitor, testPlant } from "../test/fixtures";
import { mockApi, refusal } from "../test/mockApi";
import { routes } from "./routes";

// Issue 32 §4: "a test fails on any text rendered that is in no catalogue". The screens said to be
// translated (sign-in, set password, the top bar and user menu, home, the line overview with its
// alert drawer, Scores over time and the comment and resolve dialogs) are rendered in German and in
// English with the API mocked; every text they show (each element's own text, aria-label, title,
// placeholder) must be made of that language's catalogue texts (exact, or the output of a
// catalogue function whose arguments are data), the mocked API's data, numbers, dates and
// punctuation. A stray literal in a component fails both cases; an English text left in a German
// screen fails the German one.

installResizeObserver();

const plant = testPlant({ name: "Stuttgart Werk", timeZone: "Europe/Berlin" });
const LINE = "00000000-0000-4000-8000-000000000011";
const ALERT = "00000000-0000-4000-8000-000000000041";
const SVD = "00000000-0000-4000-8000-000000000020";
const line = testLine({ id: LINE, plantId: plant.id, name: "Ventilfertigung", alertViewingWindowDays: 30 });
const me = testMe({ email: "qs@werk.test", locationName: "Halle 3" });
const NOW = Date.now();
const iso = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();

const overview: TPlantOverview = {
  plantId: plant.id,
  timeZone: plant.timeZone,
  generatedAt: iso(0),
  hoursFrom: iso(24),
  lines: [
    {
      id: LINE,
      name: line.name,
      friendlyName: null,
      isNewLine: true,
      status: "ALERTING",
      lastIngestedTime: iso(5),
      ingestionThresholdHours: 4,
      noIngestion: true,
      openAlerts: [
        { type: "svd", count: 3, oldestOpenedAt: iso(2) },
        { type: "no_data", count: 1, oldestOpenedAt: iso(1) },
      ],
      monitors: [
        {
          id: SVD,
          name: "Drehmoment",
          type: "svd",
          active: true,
          lastState: "BREACH",
          lastEvaluatedAt: iso(0),
        },
      ],
      recordsPerHour: [...new Array(23).fill(1250), 0],
    },
  ],
  newestAlerts: [
    {
      id: ALERT,
      lineId: LINE,
      kind: "monitor",
      state: "OPEN",
      monitor: { id: SVD, name: "Drehmoment", type: "svd" },
      openedAt: iso(3),
      lastSeenAt: iso(0),
      count: 2,
    },
  ],
};
const alert: TAlert = {
  id: ALERT,
  lineId: LINE,
  kind: "monitor",
  state: "OPEN",
  monitor: { id: SVD, name: "Drehmoment", type: "svd" },
  openedAt: iso(3),
  lastSeenAt: iso(0),
  count: 2,
  rule: "breach",
  score: 4.2,
  threshold: 3,
  summary: null,
  resolvedAt: null,
  cause: "Werkzeugverschleiß",
};
const detail: TAlertDetail = {
  ...alert,
  events: [
    {
      id: "00000000-0000-4000-8000-000000000051",
      kind: "OPENED",
      at: iso(3),
      userId: null,
      userEmail: null,
      comment: null,
      cause: null,
      evaluationId: null,
    },
    {
      id: "00000000-0000-4000-8000-000000000052",
      kind: "COMMENTED",
      at: iso(2),
      userId: me.id,
      userEmail: me.email,
      comment: "Spindel geprüft",
      cause: null,
      evaluationId: null,
    },
  ],
  // No score and no details: the drawer's frame, chart and notifications, not the evaluation's
  // sentences (evaluation-summary.ts, not translated in this slice).
  evaluations: [0, 1, 2].map((i) => ({
    id: `00000000-0000-4000-8000-00000000006${i}`,
    slot: iso(3 - i),
    evaluatedAt: iso(3 - i),
    state: "NO_DATA" as const,
    score: null,
    threshold: null,
    details: null,
  })),
  notifications: [
    {
      channel: "teams",
      state: "FAILED",
      deliveredAt: null,
      lastError: "HTTP 500",
      attempts: [{ at: iso(3), httpStatus: 500, error: "Internal Server Error", durationMs: 120 }],
    },
    { channel: "etq", state: "DELIVERED", deliveredAt: iso(3), lastError: null, attempts: [] },
  ],
};
const monitors: TMonitor[] = [
  {
    ...testMonitor(
      { monitor_uuid: SVD, monitor_name: "Drehmoment", monitor_type: "svd" },
      { plant_uuid: plant.id, line_uuid: LINE },
    ),
    last_state: "BREACH",
  },
];
const series: TLineEvaluationSeries = {
  from: iso(24),
  to: iso(0),
  monitors: [
    {
      monitor: { id: SVD, name: "Drehmoment", type: "svd", active: false, signal: null },
      evaluationCount: 900,
      isDecimated: true,
      points: [0, 1, 2].map((h) => ({
        slot: iso(3 - h),
        state: h === 1 ? ("BREACH" as const) : ("OK" as const),
        score: h === 1 ? 4.2 : 1.5,
        threshold: 3,
        plotScore: h === 1 ? 4.2 : 1.5,
        plotThreshold: 3,
      })),
      alerts: [{ id: ALERT, state: "OPEN", openedAt: iso(2), lastSeenAt: iso(0), resolvedAt: null }],
    },
    {
      monitor: {
        id: "00000000-0000-4000-8000-000000000022",
        name: "Bohrung Cpk",
        type: "cap",
        active: true,
        signal: { id: "00000000-0000-4000-8000-000000000031", name: "Bohrungsdurchmesser" },
      },
      evaluationCount: 0,
      isDecimated: false,
      points: [],
      alerts: [],
    },
  ],
};
const causes = { causes: ["Werkzeugbruch"] };
const feederLines = {
  feederLineIds: [],
  plants: [{ id: plant.id, name: plant.name, lines: [{ id: LINE, name: line.name, friendlyName: null }] }],
};
const exclusionOptions = { partIds: ["PRÜF-1"], modelNumbers: ["M-100"] };

/** Every answer the screens get: its strings are the data a screen may show as they are. */
const API_DATA: unknown[] = [
  me,
  [plant],
  [line],
  overview,
  [alert],
  detail,
  monitors,
  series,
  causes,
  feederLines,
  exclusionOptions,
];

let isSignedIn = false;
const server = setupServer(
  mockApi.get("*/api/auth/me", () =>
    isSignedIn ? HttpResponse.json(me) : refusal(401, { message: "Unauthorized" }),
  ),
  mockApi.get("*/api/feature-flags", () =>
    HttpResponse.json({ flags: { ...defaultFeatureFlags(), mvdMonitorCreation: true }, etqOverride: false }),
  ),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line])),
  mockApi.get("*/api/plants/:plantId/overview", () => HttpResponse.json(overview)),
  mockApi.patch("*/api/auth/me/selection", () => new HttpResponse(null, { status: 204 })),
  mockApi.get("*/api/lines/:lineId", () => HttpResponse.json(line)),
  mockApi.get("*/api/lines/:lineId/alerts", () => HttpResponse.json([alert])),
  mockApi.get("*/api/lines/:lineId/monitors", ({ request }) => {
    const type = new URL(request.url).searchParams.get("type");
    return HttpResponse.json(monitors.filter((m) => !type || m.monitor_type === type));
  }),
  mockApi.get("*/api/lines/:lineId/signals", () => HttpResponse.json([])),
  mockApi.get("*/api/lines/:lineId/evaluation-series", () => HttpResponse.json(series)),
  mockApi.get("*/api/alerts/:id", () => HttpResponse.json(detail)),
  mockApi.get("*/api/alerts/:id/causes", () => HttpResponse.json(causes)),
  mockApi.get("*/api/plant/get-active-monitor-count", () =>
    HttpResponse.json([{ lineId: LINE, activeTaskCount: 3 }]),
  ),
  mockApi.get("*/api/notifications/notifications/plants/:plantId/alert-viewing-window", () =>
    HttpResponse.json([{ lineId: LINE, alertViewingWindowDays: 30 }]),
  ),
  mockApi.get("*/api/lines/:lineId/feeder-lines", () => HttpResponse.json(feederLines)),
  mockApi.get("*/api/lines/:lineId/exclusion-options", () => HttpResponse.json(exclusionOptions)),
  mockApi.post("*/api/alerts/:id/acknowledge", () =>
    HttpResponse.json({ ...alert, state: "ACKNOWLEDGED" as const }),
  ),
);
beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  // The charts' chunks one after the other: loaded side by side, the test's module linker races.
  await import("../features/alerts/components/EvaluationChart");
  await import("../features/alerts/components/EvaluationDetailsPanel");
  await import("../features/line-overview/components/MonitorScoreChart");
}, 60_000);
afterEach(() => {
  cleanup();
  isSignedIn = false;
});
afterAll(async () => {
  server.close();
  await setLanguage("en", { remember: false });
});

// ── What a text may be made of ─────────────────────────────────────────────────────────────────

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// A zero-width space is MUI's placeholder in an empty select or label: no text.
const squash = (s: string) => s.replace(/[\s\u200b]+/g, " ").trim();
const MARK = (i: number) => `⟦${i}⟧`;
/** An argument value: 0 and 1 for the branches of a count or a flag, 7 for any other number. */
const ARG_VALUES = (i: number) => [MARK(i), 0, 1, 7];

/** Calls with object arguments: the fields as marked data. */
const OBJECT_ARGS: Record<string, unknown[][]> = {
  openAlerts: ["svd", "mvd", "cap", "no_data"].map((type) => [
    { type, count: 7, oldestOpenedAt: new Date(NOW - 7 * 3_600_000).toISOString() },
    new Date(NOW),
  ]),
  facts: [null, MARK(0)].map((type) => [{ type, rule: MARK(1), count: 7, openedAt: MARK(2) }]),
  alertFigures: [[{ n: 7, ppk: MARK(0), bound: MARK(1), level: MARK(2), target: MARK(3) }]],
  labelDisplayedRows: [[{ from: 7, to: 7, count: 7, page: 7 }]],
  getItemAriaLabel: [["first"], ["last"], ["next"], ["previous"]],
};

/**
 * MUI's own words (its table pagination), not ours: German from MUI's German locale (the German
 * theme's), English as MUI's components word them.
 */
const MUI_TEXTS = {
  de: [deDE.components?.MuiTablePagination?.defaultProps ?? {}],
  en: [
    {
      labelRowsPerPage: "Rows per page:",
      labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
        `${from}–${to} of ${count}`,
      getItemAriaLabel: (type: string) => `Go to ${type} page`,
    },
  ],
} satisfies Record<TLanguage, object[]>;

function combinations(n: number): unknown[][] {
  if (n === 0) return [[]];
  return combinations(n - 1).flatMap((rest) => ARG_VALUES(n - 1).map((v) => [...rest, v]));
}

type Catalogue = { strings: Set<string>; templates: string[] };

/** A language's catalogues: their strings, and their functions' outputs with the arguments marked. */
function catalogueOf(objects: readonly object[]): Catalogue {
  const strings = new Set<string>();
  const templates = new Set<string>();
  const walk = (v: unknown, key: string) => {
    if (typeof v === "string") strings.add(squash(v));
    else if (typeof v === "function") {
      const calls = OBJECT_ARGS[key] ?? (v.length <= 4 ? combinations(v.length) : []);
      for (const args of calls) {
        try {
          const out = (v as (...a: unknown[]) => unknown)(...args);
          if (typeof out === "string" && !/NaN|undefined|\[object/.test(out)) templates.add(squash(out));
        } catch {
          // Arguments of another kind: another combination gives the text.
        }
      }
    } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  for (const o of objects) walk(o, "");
  return { strings, templates: [...templates] };
}

/** The mocked API's strings. */
function dataStrings(): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "string" && v.trim()) out.add(squash(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  API_DATA.forEach(walk);
  return out;
}

const NUMBER = String.raw`[-−+]?\d[\d.,]*(?:e[-+]?\d+)?`;
const ZONE = "GMT[+-]\\d+|UTC|GMT|MEZ|MESZ|CET|CEST|EST|EDT";
const SEPARATOR = /[*\s·:,;()[\]—–\-/.×“”"'…|%+=<>„]/;

/** Whether the text is made of the allowed pieces, left to right (a word-break over matchers). */
function coveredBy(text: string, matchers: RegExp[]): boolean {
  const reachable = new Array<boolean>(text.length + 1).fill(false);
  reachable[0] = true;
  for (let i = 0; i < text.length; i++) {
    if (!reachable[i]) continue;
    if (SEPARATOR.test(text.charAt(i))) reachable[i + 1] = true;
    for (const re of matchers) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && m[0].length > 0) reachable[i + m[0].length] = true;
    }
  }
  return reachable[text.length] === true;
}

function matchersFor(objects: readonly object[]): RegExp[] {
  const { strings, templates } = catalogueOf(objects);
  const exact = [...strings, ...dataStrings()].filter(Boolean).sort((a, b) => b.length - a.length);
  const arg = `(?:${[...exact.map(escapeRe), NUMBER, ZONE].join("|")})`;
  const fromTemplate = (t: string) =>
    escapeRe(t).replace(/⟦\d+⟧/g, "⟪").replace(/\d+/g, NUMBER).replace(/⟪/g, `${arg}(?: ${arg})*`);
  return [
    ...templates.sort((a, b) => b.length - a.length).map((t) => new RegExp(fromTemplate(t), "y")),
    ...exact.map((s) => new RegExp(escapeRe(s), "y")),
    new RegExp(NUMBER, "y"),
    new RegExp(ZONE, "y"),
  ];
}

/** Each element's own text (its text children together) and its accessible names. */
function renderedTexts(root: HTMLElement): string[] {
  const out: string[] = [];
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    const own = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? "")
      .join("");
    for (const t of [
      own,
      ...["aria-label", "title", "placeholder", "alt"].map((a) => el.getAttribute(a) ?? ""),
    ])
      if (squash(t)) out.push(squash(t));
  }
  return out;
}

function expectOnlyCatalogueTexts(objects: readonly object[], root: HTMLElement = document.body) {
  const matchers = matchersFor(objects);
  const strays = [...new Set(renderedTexts(root))].filter((t) => !coveredBy(t, matchers));
  expect(strays).toEqual([]);
}

// ── The screens ────────────────────────────────────────────────────────────────────────────────

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

async function walkScreens(lang: TLanguage, objects: readonly object[]) {
  const A = textsIn(AUTH_TEXTS, lang);
  const S = textsIn(SHELL_TEXTS, lang);
  const L = textsIn(LINE_OVERVIEW_TEXTS, lang);
  const AL = textsIn(ALERT_TEXTS, lang);
  const user = userEvent.setup();
  // The user's language, kept on the server: the signed-in frame follows it.
  me.language = lang;

  renderAt("/login");
  expect(await screen.findByRole("button", { name: A.signIn })).toBeInTheDocument();
  await user.type(screen.getByLabelText(A.email), "qs@werk.test");
  expectOnlyCatalogueTexts(objects);
  cleanup();

  renderAt("/set-password");
  expect(await screen.findByRole("button", { name: A.setPassword })).toBeInTheDocument();
  await user.type(screen.getByLabelText(A.newPassword), "kurz");
  await user.type(screen.getByLabelText(A.repeatPassword), "anders");
  expectOnlyCatalogueTexts(objects);
  cleanup();

  isSignedIn = true;
  renderAt("/");
  expect(await screen.findByRole("link", { name: line.name }, { timeout: 20_000 })).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  await user.click(screen.getByRole("button", { name: S.userMenu }));
  expect(
    await screen.findByRole("menuitemradio", { name: textsIn(LANGUAGE_TEXTS, lang).options.de }),
  ).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  await user.keyboard("{Escape}");
  cleanup();

  renderAt(`/lines/${LINE}?alert=${ALERT}`);
  const drawer = await screen.findByRole("dialog", {}, { timeout: 20_000 });
  expect(await within(drawer).findByRole("heading", { name: AL.history })).toBeInTheDocument();
  // The page behind the open drawer is hidden from the accessibility tree (the drawer is modal).
  expect(await screen.findByRole("link", { name: L.newSvdMonitor, hidden: true })).toBeInTheDocument();
  // The charts are their own chunks: wait for their legends.
  expect(await within(drawer).findByText(AL.breach, undefined, { timeout: 20_000 })).toBeInTheDocument();
  const scores = await screen.findAllByRole("figure", { hidden: true }, { timeout: 20_000 });
  expect(
    await within(scores[0] as HTMLElement).findByText(AL.breach, undefined, { timeout: 20_000 }),
  ).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  await user.keyboard("{Escape}");
  await user.click(await screen.findByRole("button", { name: AL.comment }));
  expect(await screen.findByRole("heading", { name: AL.commentTitle })).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  await user.click(screen.getByRole("button", { name: AL.cancel }));
  await user.click(await screen.findByRole("button", { name: AL.resolve }));
  expect(await screen.findByRole("heading", { name: AL.resolveTitle })).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  await user.click(screen.getByRole("button", { name: AL.cancel }));
  // The snackbar of an action: the spec's message in the interface's language.
  await user.click(await screen.findByRole("button", { name: AL.acknowledge }));
  expect(
    await screen.findByText(textsIn(ALERT_MESSAGES, lang).acknowledged, undefined, { timeout: 10_000 }),
  ).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  cleanup();

  // Settings: the side menu (the sections' panes are not all translated yet: each is checked
  // where it is).
  renderAt("/settings?section=SIGNAL_MANAGEMENT");
  const nav = await screen.findByRole("navigation", { name: textsIn(SETTINGS_MESSAGES, lang).title });
  expect(
    within(nav).getByRole("button", { name: textsIn(SETTINGS_MENU_TEXTS, lang).sections.LINE_MANAGEMENT }),
  ).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects, nav);
  cleanup();

  // Settings → Line Management, whole: the menu, the grid, the Configure Line drawer.
  const LM = textsIn(LINE_MANAGEMENT_TEXTS, lang);
  renderAt("/settings?section=LINE_MANAGEMENT");
  expect(await screen.findAllByRole("heading", { name: LM.title }, { timeout: 20_000 })).not.toHaveLength(0);
  const configure = await screen.findByRole(
    "button",
    { name: `${LM.configureLine} ${line.name}` },
    { timeout: 20_000 },
  );
  expectOnlyCatalogueTexts(objects);
  await user.click(configure);
  const lineDrawer = await screen.findByRole("dialog", {}, { timeout: 20_000 });
  expect(await within(lineDrawer).findByRole("button", { name: LM.saveChanges })).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
  cleanup();

  renderAt("/no-such-page");
  expect(
    await screen.findByRole("heading", { name: S.pageNotFound }, { timeout: 20_000 }),
  ).toBeInTheDocument();
  expectOnlyCatalogueTexts(objects);
}

describe("every text rendered is in a catalogue", () => {
  it("in German: the German twins", async () => {
    await setLanguage("de", { remember: false });
    expect(document.documentElement.lang).toBe("de");
    await walkScreens("de", [...DE_TWINS.map(([, de]) => de), ...MUI_TEXTS.de]);
  }, 120_000);

  it("in English: the English catalogues", async () => {
    await setLanguage("en", { remember: false });
    await walkScreens("en", [...DE_TWINS.map(([en]) => en), ...MUI_TEXTS.en]);
  }, 120_000);
});
