import type {
  TActiveMonitorCount,
  TAddUserResponse,
  TAlert,
  TAlertCauses,
  TAlertDetail,
  TAlertViewingWindow,
  TApiToken,
  TAssociatedResultClassifications,
  TAuditLogPage,
  TBacktest,
  TCapabilityView,
  TCapMonitorStatus,
  TCreateApiTokenResponse,
  TCsvUploadProgress,
  TCsvUploadResult,
  TCustomerRef,
  TDeliveryHealth,
  TFeatureFlagsResponse,
  TFeederLineInfo,
  TIntegrationTestResult,
  TLine,
  TLineEvaluationSeries,
  TLineExclusionOptions,
  TMe,
  TMessage,
  TModelNumber,
  TMonitor,
  TMonitorFormBounds,
  TMonitorPreview,
  TMonitorRule,
  TMqttCredential,
  TPartAttribute,
  TPasswordLinkResponse,
  TPlant,
  TPlantOverview,
  TRelianceConfig,
  TRelianceConfigMap,
  TRetentionResponse,
  TRotateMqttPasswordResponse,
  TSignalGroup,
  TSpcSignalLimits,
  TSpcSuggestion,
  TStation,
  TTeamsWebhook,
  TUserRow,
} from "@linewatch/contracts";
import {
  type DefaultBodyType,
  HttpResponse,
  type HttpResponseResolver,
  http,
  type PathParams,
  type RequestHandlerOptions,
} from "msw";

/**
 * The answer of each endpoint the component tests mock, by method and msw path, as the server's
 * route declares it (its 2xx response schema in apps/server/src/http/routes) in the contract's
 * types. `null` is a 204 without a body.
 */
interface Answers {
  get: {
    "*/api/alerts/:id": TAlertDetail;
    "*/api/alerts/:id/causes": TAlertCauses;
    "*/api/audit-log": TAuditLogPage;
    /** CSV text (the route's z.string()). */
    "*/api/audit-log/export": string;
    "*/api/audit-log/resources/:resource/:resourceId": TAuditLogPage;
    "*/api/auth/customers": TCustomerRef[];
    "*/api/auth/tokens": TApiToken[];
    "*/api/auth/me": TMe;
    "*/api/customer-users-for-user": TUserRow[];
    "*/api/feature-flags": TFeatureFlagsResponse;
    "*/api/line-config/spc-signal-limits": TSpcSignalLimits[];
    "*/api/lines/:lineId": TLine;
    "*/api/lines/:lineId/alerts": TAlert[];
    "*/api/lines/:lineId/cap-monitors/status": TCapMonitorStatus[];
    "*/api/lines/:lineId/evaluation-series": TLineEvaluationSeries;
    "*/api/lines/:lineId/exclusion-options": TLineExclusionOptions;
    "*/api/lines/:lineId/feeder-lines": TFeederLineInfo;
    "*/api/lines/:lineId/model-numbers": TModelNumber[];
    "*/api/lines/:lineId/monitors": TMonitor[];
    "*/api/lines/:lineId/monitors/next-name": { name: string };
    "*/api/lines/:lineId/part-attributes": TPartAttribute[];
    "*/api/lines/:lineId/signals": TStation[];
    "*/api/lines/:lineId/signals/:signalId/capability": TCapabilityView;
    "*/api/monitors/form-bounds": TMonitorFormBounds;
    "*/api/notifications/delivery-health/plants/:plantId": TDeliveryHealth[];
    "*/api/notifications/monitor-rules/:id": TMonitorRule[];
    "*/api/notifications/notifications/plants/:plantId/alert-viewing-window": TAlertViewingWindow[];
    "*/api/notifications/teams-webhooks/plants/:plantId": TTeamsWebhook[];
    "*/api/plant/get-active-monitor-count": TActiveMonitorCount[];
    "*/api/plants": TPlant[];
    "*/api/plants/:plantId/lines": TLine[];
    "*/api/plants/:plantId/mqtt-credential": TMqttCredential;
    "*/api/plants/:plantId/overview": TPlantOverview;
    "*/api/plants/:plantId/part-records/csv/:uploadId/progress": TCsvUploadProgress;
    "*/api/reliance-configuration/plants/:plantId": TRelianceConfigMap;
    "*/api/retention": TRetentionResponse;
  };
  post: {
    "*/api/add-user": TAddUserResponse;
    "*/api/alerts/:id/acknowledge": TAlert;
    "*/api/auth/login": TMe;
    "*/api/auth/me/password": null;
    "*/api/auth/set-password": null;
    "*/api/auth/tokens": TCreateApiTokenResponse;
    "*/api/line-config/spc-signal-limits/suggest": TSpcSuggestion[];
    "*/api/monitors": { id: string };
    /** The whole backtest as JSON (a mock that does not stream; BacktestPanel's streams). */
    "*/api/monitors/backtest": TBacktest;
    "*/api/monitors/preview": TMonitorPreview;
    "*/api/notifications/teams-webhooks/:id/test": TIntegrationTestResult;
    "*/api/plants": TPlant;
    "*/api/plants/:plantId/mqtt-credential/password": TRotateMqttPasswordResponse;
    "*/api/plants/:plantId/part-records/csv": TCsvUploadResult;
    "*/api/plants/:plantId/part-records/csv/:uploadId/cancel": TCsvUploadProgress;
    "*/api/reliance-configuration/lines/:lineId": TRelianceConfig;
    "*/api/reliance-configuration/lines/:lineId/test": TIntegrationTestResult;
    "*/api/signal-groups": TSignalGroup[];
    "*/api/signal/associated-result-classifications": TAssociatedResultClassifications;
    "*/api/tasks": TMonitor;
    "*/api/tasks/get-by-id": TMonitor;
    "*/api/users/:userId/password-link": TPasswordLinkResponse;
  };
  put: {
    "*/api/auth/me/language": null;
    "*/api/feature-flags/:key": TFeatureFlagsResponse;
    "*/api/line-config/spc-signal-limits": TSpcSignalLimits[];
    "*/api/notifications/notifications/lines/:lineId/alert-viewing-window": TAlertViewingWindow;
    "*/api/notifications/teams-webhooks/plants/:plantId/lines/:lineId": TTeamsWebhook;
    "*/api/retention": TRetentionResponse;
    "*/api/tasks": TMonitor;
  };
  patch: {
    "*/api/auth/me/selection": null;
    "*/api/lines/:lineId": TLine;
    "*/api/monitors/:monitorId": TMonitor;
    "*/api/notifications/monitor-rules/:id": TMonitorRule[];
    "*/api/plants/:plantId": TPlant;
    "*/api/signal-attribute-update": null;
    "*/api/signal/result-classifications": null;
    "*/api/stations/:id": null;
  };
  delete: {
    "*/api/auth/tokens/:tokenId": null;
    "*/api/notifications/teams-webhooks/:id": null;
    "*/api/reliance-configuration/lines/:lineId": null;
    "*/api/tasks": null;
  };
}

type Method = keyof Answers;
type Body<M extends Method, P extends keyof Answers[M]> = Extract<Answers[M][P], DefaultBodyType>;

/**
 * What a handler of `method path` answers: an HttpResponse of the contract's type (msw's own
 * resolver type also takes any plain Response for an object body, which would check nothing), or
 * undefined to fall through to the next handler.
 */
export type AnswerOf<M extends Method, P extends keyof Answers[M]> = HttpResponse<Body<M, P>>;

type Resolver<M extends Method, P extends keyof Answers[M]> = (
  info: Parameters<HttpResponseResolver<PathParams, DefaultBodyType>>[0],
) => AnswerOf<M, P> | undefined | Promise<AnswerOf<M, P> | undefined>;

const handlerOf =
  <M extends Method>(method: M) =>
  <P extends keyof Answers[M] & string>(path: P, resolver: Resolver<M, P>, options?: RequestHandlerOptions) =>
    http[method](path, resolver as HttpResponseResolver, options);

/**
 * msw's handlers for the app's endpoints, whose answer must be the contract's type: a mock that
 * drifts from the contract fails the typecheck. E.g. mockApi.get with the path of the plants'
 * list answers HttpResponse.json([testPlant()]); a refusal is `refusal(status, { message })`.
 */
export const mockApi = {
  get: handlerOf("get"),
  post: handlerOf("post"),
  put: handlerOf("put"),
  patch: handlerOf("patch"),
  delete: handlerOf("delete"),
};

/**
 * A refusal (status 4xx/5xx) as the server sends it: ZMessage's body, with what else the route
 * adds. Typed to stand in for any endpoint's answer.
 */
export const refusal = (status: number, body: TMessage & Record<string, unknown>): HttpResponse<never> =>
  HttpResponse.json<Record<string, unknown>>(body, { status }) as HttpResponse<never>;
