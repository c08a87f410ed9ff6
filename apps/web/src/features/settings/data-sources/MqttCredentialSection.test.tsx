import {
  MQTT_CREDENTIAL_MESSAGES,
  type TMqttCredential,
  type TRotateMqttPasswordResponse,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testPlant } from "../../../test/fixtures";
import { mockApi } from "../../../test/mockApi";
import { MqttCredentialSection } from "./MqttCredentialSection";

const plant = testPlant();
const username = "00000000-0000-4000-8000-0000000000aa";
let credential: TMqttCredential;
let issued = 0;

const server = setupServer(
  mockApi.get("*/api/plants/:plantId/mqtt-credential", () => HttpResponse.json(credential)),
  mockApi.post("*/api/plants/:plantId/mqtt-credential/password", () => {
    issued++;
    credential = { ...credential, passwordSetAt: `2026-11-22T1${issued}:00:00Z` };
    return HttpResponse.json<TRotateMqttPasswordResponse>(
      { credential, password: `lwm_secret-${issued}` },
      { status: 201 },
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderSection() {
  credential = { username, passwordSetAt: null, lastConnectedAt: null };
  issued = 0;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MqttCredentialSection plant={plant} />
    </QueryClientProvider>,
  );
}

describe("MqttCredentialSection", { timeout: 30_000 }, () => {
  it("sets the first password and shows it once with the username", async () => {
    const ue = userEvent.setup();
    renderSection();
    expect((await screen.findByTestId("mqtt-credential-username")).textContent).toBe(username);
    expect(screen.getByTestId("mqtt-credential-password").textContent).toBe(
      "Not set: this plant's MQTT clients cannot connect",
    );

    // No old password to replace: no confirmation.
    await ue.click(screen.getByRole("button", { name: "Set MQTT password" }));
    const dialog = await screen.findByRole("dialog", {
      name: MQTT_CREDENTIAL_MESSAGES.rotateTitle(plant.name),
    });
    expect(within(dialog).getByText(MQTT_CREDENTIAL_MESSAGES.passwordSet)).toBeInTheDocument();
    expect(within(dialog).getByTestId("mqtt-username").textContent).toBe(username);
    expect(within(dialog).getByTestId("mqtt-password").textContent).toBe("lwm_secret-1");

    await ue.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText("lwm_secret-1")).not.toBeInTheDocument();
    expect(screen.getByTestId("mqtt-credential-password").textContent).toMatch(/^Set 2026-11-22/);
  });

  it("asks before replacing a password, warning that its clients are disconnected", async () => {
    const ue = userEvent.setup();
    renderSection();
    await ue.click(await screen.findByRole("button", { name: "Set MQTT password" }));
    await ue.click(await screen.findByRole("button", { name: "Done" }));

    await ue.click(await screen.findByRole("button", { name: "New MQTT password" }));
    const confirm = await screen.findByRole("dialog", {
      name: MQTT_CREDENTIAL_MESSAGES.rotateTitle(plant.name),
    });
    expect(within(confirm).getByText(MQTT_CREDENTIAL_MESSAGES.rotateWarning)).toBeInTheDocument();
    await ue.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(issued).toBe(1);

    await ue.click(screen.getByRole("button", { name: "New MQTT password" }));
    await ue.click(await screen.findByRole("button", { name: "Set new password" }));
    expect((await screen.findByTestId("mqtt-password")).textContent).toBe("lwm_secret-2");
    expect(issued).toBe(2);
  });
});
