import type { Page } from "@playwright/test";
import mqtt from "mqtt";
import { expect, newMqttPassword, openSettings, signIn, test } from "./fixtures";

// Ingestion on the Data Sources page, as the demo administrator on the demo plant: ingest tokens
// (secret shown once, revoke), CSV upload of part records, and the insight page of a data source
// with its messages mapped to signals and its dead letters (published on the e2e server's
// embedded broker).

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT ?? 18831}`;
/** A name no earlier run against the same server has used. */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

async function openDataSources(page: Page) {
  await signIn(page, "admin");
  await openSettings(page, "Data Sources");
  await expect(page.getByRole("heading", { name: "Data Sources" })).toBeVisible();
}

/** The plant the page shows: the one selected in the top bar. */
async function currentPlantId(page: Page): Promise<string> {
  const me = await (await page.request.get("/api/auth/me")).json();
  const plants: { id: string }[] = await (await page.request.get("/api/plants")).json();
  const plant = plants.find((p) => p.id === me.selectedPlantId) ?? plants[0];
  if (!plant) throw new Error("no plant");
  return plant.id;
}

/** The CONNACK return code of a refused connection, or 0 when it was accepted. */
async function connackCode(login?: { username: string; password: string }): Promise<number> {
  try {
    const c = await mqtt.connectAsync(MQTT_URL, { reconnectPeriod: 0, connectTimeout: 5_000, ...login });
    await c.endAsync();
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

const record = (partId: string) => ({
  line: "E2E Token Line",
  station: "OP10",
  partId,
  timestamp: new Date().toISOString(),
  measurements: { Torque: 12.3 },
});

test("creates an ingest token, shows its secret once with a curl example, and revokes it", async ({
  page,
}) => {
  await openDataSources(page);
  const name = unique("Gateway");
  const section = page.getByRole("region", { name: "Ingest tokens" });
  await section.getByRole("button", { name: "Create ingest token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create ingest token" });
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create" }).click();

  const secretDialog = page.getByRole("dialog", { name: `Ingest token ${name}` });
  await expect(
    secretDialog.getByText("Copy it now: it will not be shown again.", { exact: false }),
  ).toBeVisible();
  const secret = (await secretDialog.getByTestId("ingest-token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^lwi_\S{20,}$/);
  const curl = secretDialog.getByTestId("ingest-token-curl");
  await expect(curl).toContainText("/api/ingest");
  await expect(curl).toContainText(`Authorization: Bearer ${secret}`);
  await expect(secretDialog.getByRole("button", { name: "Copy token" })).toBeVisible();
  await expect(secretDialog.getByRole("button", { name: "Copy curl example" })).toBeVisible();

  // The token works.
  const headers = { authorization: `Bearer ${secret}` };
  const ok = await page.request.post("/api/ingest", { headers, data: [record(unique("TOK"))] });
  expect(ok.status(), await ok.text()).toBe(200);

  await secretDialog.getByRole("button", { name: "Done" }).click();
  await expect(secretDialog).toBeHidden();
  // Shown once: the secret is nowhere on the page any more, only its prefix.
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = section.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(secret.slice(0, 10));
  await expect(row).toContainText("Active");

  await row.getByRole("button", { name: `Revoke ingest token ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke ingest token : ${name}` });
  await confirm.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("Ingest token revoked")).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  const refused = await page.request.post("/api/ingest", { headers, data: [record(unique("TOK"))] });
  expect(refused.status()).toBe(401);
});

test("sets the plant's MQTT password, shown once; a client is kept to its plant's topics and a new password disconnects it", async ({
  page,
}) => {
  await openDataSources(page);
  const plantId = await currentPlantId(page);
  const ingestorId = (await (await page.request.get(`/api/plants/${plantId}/ingestor`)).json()).id as string;
  const section = page.getByRole("region", { name: "MQTT credential" });
  await expect(section.getByTestId("mqtt-credential-username")).toHaveText(ingestorId);
  // Anonymous clients are refused (CONNACK 5).
  expect(await connackCode()).toBe(5);

  // An earlier test of the run may have set one already: either way a new password is shown once.
  const button = section.getByRole("button", { name: /^(Set|New) MQTT password$/ });
  const title = /^New MQTT password : /;
  const replacing = (await button.textContent())?.startsWith("New");
  await button.click();
  if (replacing) {
    await page
      .getByRole("dialog", { name: title })
      .filter({ hasText: "disconnected" })
      .getByRole("button", { name: "Set new password" })
      .click();
  }
  const dialog = page.getByRole("dialog", { name: title }).filter({ hasText: "Copy it now" });
  await expect(dialog.getByTestId("mqtt-username")).toHaveText(ingestorId);
  const password = (await dialog.getByTestId("mqtt-password").textContent()) ?? "";
  expect(password).toMatch(/^lwm_\S{40,}$/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(password)).toHaveCount(0);
  await expect(section.getByTestId("mqtt-credential-password")).toContainText("Set ");

  // With it a client publishes on its plant's topic; '#' is refused (SUBACK 0x80).
  const login = { username: ingestorId, password };
  const client = await mqtt.connectAsync(MQTT_URL, { reconnectPeriod: 0, connectTimeout: 5_000, ...login });
  const wide = await client.subscribeAsync("#", { qos: 1 }).then(
    (granted) => granted[0]?.qos,
    (err: { packet?: { granted?: number[] } }) => err.packet?.granted?.[0],
  );
  expect(wide).toBe(0x80);

  // A new password disconnects the client and refuses the old one (CONNACK 4).
  const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
  await section.getByRole("button", { name: "New MQTT password" }).click();
  await page
    .getByRole("dialog", { name: title })
    .filter({ hasText: "disconnected" })
    .getByRole("button", { name: "Set new password" })
    .click();
  const second = page.getByRole("dialog", { name: title }).filter({ hasText: "Copy it now" });
  await expect(second.getByTestId("mqtt-password")).not.toHaveText(password);
  const fresh = (await second.getByTestId("mqtt-password").textContent()) ?? "";
  await second.getByRole("button", { name: "Done" }).click();
  await closed;
  expect(await connackCode(login)).toBe(4);
  expect(await connackCode({ username: ingestorId, password: fresh })).toBe(0);
});

test("uploads a CSV of part records and shows stored, duplicates and rejected rows", async ({ page }) => {
  await openDataSources(page);
  await page.getByRole("button", { name: "Upload CSV" }).click();
  const dialog = page.getByRole("dialog", { name: /Upload part records to/ });
  const input = dialog.getByLabel("CSV file");

  // A header without partId is refused before anything is sent.
  await input.setInputFiles({
    name: "no-part-id.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("line,station,timestamp,Torque\nL,S,2026-11-22T10:00:00Z,1\n"),
  });
  await expect(dialog.getByText("The CSV header has no partId column")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Upload", exact: true })).toBeDisabled();

  // Without a line column the dialog's Line is needed.
  const id = Date.now().toString(36);
  const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();
  const csv = [
    "station,partId,modelNumber,timestamp,Torque,lower:Torque,upper:Torque,result:Result,attr:Shift",
    `OP10,CSV-${id}-1,M-100,${t(1)},12.31,11,13.5,PASS,A`,
    `OP10,CSV-${id}-2,M-100,${t(2)},12.40,11,13.5,PASS,B`,
    `OP10,CSV-${id}-3,M-100,${t(3)},abc,11,13.5,FAIL,A`,
    `OP10,CSV-${id}-1,M-100,${t(1)},12.31,11,13.5,PASS,A`,
  ].join("\n");
  await input.setInputFiles({ name: "records.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(dialog.getByText("records.csv")).toBeVisible();
  await expect(dialog.getByText("The CSV header has no line column", { exact: false })).toBeVisible();
  await dialog.getByLabel("Line").fill(`E2E CSV Line ${id}`);
  await expect(dialog.getByTestId("csv-columns")).toHaveText(
    "9 columns: 4 record fields, 1 measurement, 2 limits, 1 result, 1 attribute",
  );
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();

  const summary = dialog.getByTestId("csv-upload-summary");
  await expect(summary).toBeVisible();
  const stat = (label: string) => summary.locator("dl > div").filter({ hasText: label }).locator("dd");
  await expect(stat("Rows read")).toHaveText("4");
  await expect(stat("Stored")).toHaveText("2");
  await expect(stat("Duplicates")).toHaveText("1");
  await expect(stat("Rejected")).toHaveText("1");
  const rejected = summary.getByRole("table", { name: "Rejected rows" });
  await expect(rejected.getByRole("row").nth(1)).toContainText("4");
  await expect(rejected.getByRole("row").nth(1)).toContainText('Torque: "abc" is not a number');
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("shows the upload's progress, then processing, then the summary", async ({ page }) => {
  await openDataSources(page);
  // Slow the upload down (about 256 KB/s) so the progress bar has time to show.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const throttle = (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  /** 8,000 rows (about 600 KB) no earlier upload has sent. */
  const bigCsv = () => {
    const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const rows = Array.from(
      { length: 8_000 },
      (_, i) =>
        `E2E Progress ${id},OP10,PRG-${id}-${i},${new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString()},${i % 50}`,
    );
    return Buffer.from(["line,station,partId,timestamp,Torque", ...rows].join("\n"));
  };
  await page.getByRole("button", { name: "Upload CSV" }).click();
  const dialog = page.getByRole("dialog", { name: /Upload part records to/ });
  const summary = dialog.getByTestId("csv-upload-summary");
  const stored = summary.locator("dl > div").filter({ hasText: "Stored" });

  await throttle(256 * 1024);
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: bigCsv() });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  const progress = dialog.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toBeVisible();
  await expect(dialog.getByText(/^Uploading… \d+% \(/)).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(stored).toContainText("8,000");

  // At full speed the file is sent at once and the server's work shows as processing. (Chrome's
  // upload throttling holds the request back, so the server only starts at the very end.)
  await throttle(-1);
  await dialog.getByRole("button", { name: "Upload another file" }).click();
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "big2.csv", mimeType: "text/csv", buffer: bigCsv() });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByText("Processing… the rows are being checked and stored.")).toBeVisible();
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(stored).toContainText("8,000");
});

test("Cancel stops a running upload: the rows stored before it stay, the summary says so", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openDataSources(page);
  // 80,000 rows (about 6 MB): stored over many seconds, so the upload is still running when the
  // dialog shows its first counts.
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const rows = Array.from(
    { length: 80_000 },
    (_, i) =>
      `E2E Cancel ${id},OP10,CNL-${id}-${i},${new Date(Date.UTC(2026, 9, 2) + i * 1000).toISOString()},${i % 50}`,
  );
  const csv = Buffer.from(["line,station,partId,timestamp,Torque", ...rows].join("\n"));
  await page.getByRole("button", { name: "Upload CSV" }).click();
  const dialog = page.getByRole("dialog", { name: /Upload part records to/ });
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "cancel.csv", mimeType: "text/csv", buffer: csv });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();

  // The server's counts while it works: "N rows read, M stored".
  await expect(dialog.getByText(/^[\d,]+ rows? read, [\d,]+ stored$/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole("button", { name: "Cancel upload" }).click();

  const summary = dialog.getByTestId("csv-upload-summary");
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText(
    /Cancelled: [\d,]+ rows? (were|was) stored before Cancel and stay stored; rows after line [\d,]+ were not read/,
  );
  const text = (await summary.textContent()) ?? "";
  const stored = Number(/Cancelled: ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, ""));
  const lastLine = Number(/rows after line ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, ""));
  // Stopped part-way: fewer rows stored than the file holds, none past the last line read.
  expect(stored).toBeLessThan(rows.length);
  expect(lastLine).toBeLessThan(rows.length + 1);
  expect(stored).toBeLessThanOrEqual(lastLine - 1);
});

test("Insight shows a source's last messages mapped to signals and its dead letters", async ({ page }) => {
  await openDataSources(page);
  const plantId = await currentPlantId(page);
  // A source of its own: the demo's source also carries the live simulator's messages, and the
  // ingestor samples at most one message a second per source.
  const id = Date.now().toString(36);
  const created = await page.request.post(`/api/plants/${plantId}/data-sources`, {
    data: { name: `E2E insight ${id}`, topic: `e2e/insight-${id}/#` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const source: { id: string; name: string } = await created.json();
  const line = `E2E Insight ${id}`;
  const topic = `e2e/insight-${id}/${line}/OP30`;
  const insight = async () =>
    (await page.request.get(`/api/data-sources/${source.id}/insight`)).json() as Promise<{
      messages: { payload: string }[];
      deadLetterCount: number;
    }>;

  // The embedded broker takes the plant's MQTT login only (a new password, shown once).
  const login = await newMqttPassword(page, plantId);
  const client = await mqtt.connectAsync(MQTT_URL, { reconnectPeriod: 0, connectTimeout: 5_000, ...login });
  try {
    // QoS 1: the broker acknowledges once the message is stored or kept as a dead letter. The
    // ingestor re-reads its sources right after a change: publish until the new one is heard.
    await expect
      .poll(async () => {
        await client.publishAsync(topic, `not json ${id}`, { qos: 1 });
        return (await insight()).deadLetterCount;
      })
      .toBeGreaterThan(0);
    // Messages are sampled at most once a second per source: the good one must be the newest.
    await page.waitForTimeout(1_100);
    const good = {
      partId: `INS-${id}`,
      timestamp: new Date().toISOString(),
      measurements: { Torque: 12.5 },
      results: { Result: "PASS" },
    };
    await client.publishAsync(topic, JSON.stringify(good), { qos: 1 });
  } finally {
    await client.endAsync();
  }

  await page.goto(`/settings/insight-mapping?sourceId=${source.id}&mappingVersion=`);
  await expect(page.getByRole("heading", { name: `Insight mapping : ${source.name}` })).toBeVisible();

  // The newest message is open, with its line and station from the topic and each field's signal.
  const messages = page.getByRole("region", { name: "Last received messages" });
  const mapping = messages.getByRole("table", { name: "Field mapping" }).first();
  await expect(messages.getByText(line, { exact: true }).first()).toBeVisible();
  const torque = mapping.getByRole("row").filter({ hasText: "measurements.Torque" });
  await expect(torque).toContainText("Torque");
  await expect(torque).toContainText("MEASUREMENT");
  await expect(torque).toContainText("OP30");
  // The message's record created the line, so every signal is new with it.
  await expect(torque).toContainText("new signal");
  await expect(mapping.getByRole("row").filter({ hasText: "results.Result" })).toContainText("RESULT");

  // The dead letter: time in the plant's zone, topic, reason and the payload behind a toggle.
  const dead = page.getByRole("region", { name: /Dead letters/ });
  const letter = dead.getByTestId("dead-letter").last();
  await expect(letter).toContainText(topic);
  await expect(letter).toContainText("payload is not JSON");
  await expect(letter.locator("time")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+$/);
  const payload = letter.locator("pre");
  await expect(payload).toBeHidden();
  await letter.getByText("Payload", { exact: true }).click();
  await expect(payload).toHaveText(`not json ${id}`);
});
