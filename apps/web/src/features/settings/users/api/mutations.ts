import {
  PASSWORD_LINK_TEXTS,
  type TAddUserBody,
  type TAddUserResponse,
  type TPasswordLinkResponse,
  type TUpdateUserLocationBody,
  type TUserRole,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { ApiError, api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { sessionKeys } from "../../../../shared/data/session/keys";
import { useMe } from "../../../../shared/data/session/queries";
import { currentLanguage, localizeMessage, textsIn } from "../../../../shared/i18n/language";
import { userKeys } from "./keys";

type AddUserVars = { customerId: string; body: TAddUserBody };

/** POST /api/add-user?customerId=… (requirements.md settings §7, §8 "Add user"). */
export function useAddUser(options?: ResourceMutationOptions<TAddUserResponse, AddUserVars>) {
  const customerId = useMe().data?.customer.id;
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TAddUserResponse>("POST", `/api/add-user?customerId=${encodeURIComponent(v.customerId)}`, v.body),
      invalidate: (qc, _v, res) => {
        if (!res) return;
        // Show the new row at once; the refetch brings the server's order.
        qc.setQueryData<TUserRow[]>(userKeys.list(customerId), (rows) => (rows ? [...rows, res.user] : rows));
        void qc.invalidateQueries({ queryKey: userKeys.all });
      },
      successText: USER_MESSAGES.added,
      errorText: (err) => {
        if (err instanceof ApiError && err.status === 409) return USER_MESSAGES.exists;
        console.error(err);
        return USER_MESSAGES.addError;
      },
    },
    options,
  );
}

type SetRoleVars = { userId: string; customerId: string; role: TUserRole };

/**
 * Selecting administrator POSTs, selecting user PUTs /api/update-user-roles (requirements.md settings §4
 * "User row"). A 403 is 'Forbidden resource' (§6); any other failure says what went wrong.
 */
export function useSetUserRole(options?: ResourceMutationOptions<null, SetRoleVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<null>(v.role === "administrator" ? "POST" : "PUT", "/api/update-user-roles", {
          userId: v.userId,
          role: "administrator",
          customerId: v.customerId,
        }),
      invalidate: (qc) => qc.invalidateQueries({ queryKey: userKeys.all }),
      successText: USER_MESSAGES.roleUpdated,
      errorText: roleErrorText,
    },
    options,
  );
}

export function roleErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status === 403) return USER_MESSAGES.forbidden;
  const serverMessage = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.body.message;
  return typeof serverMessage === "string" && serverMessage ? serverMessage : USER_MESSAGES.roleUpdateError;
}

type SetLocationVars = { userId: string; body: TUpdateUserLocationBody };

/** PATCH /api/users/{userId}; the session is re-checked after (requirements.md monitor-forms §7). */
export function useSetUserLocation(options?: ResourceMutationOptions<null, SetLocationVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<null>("PATCH", `/api/users/${encodeURIComponent(v.userId)}`, v.body),
      invalidate: (qc, _v, _saved, error) => {
        if (!error) void qc.invalidateQueries({ queryKey: sessionKeys.me });
        return qc.invalidateQueries({ queryKey: userKeys.all });
      },
      successText: USER_MESSAGES.locationSaved,
      errorText: USER_MESSAGES.locationSaveError,
    },
    options,
  );
}

type DeleteUserVars = { userId: string; customerId: string };

/** POST /api/users {userId, customerId} deletes a user (requirements.md settings §7). */
export function useDeleteUser(options?: ResourceMutationOptions<null, DeleteUserVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<null>("POST", "/api/users", v),
      invalidate: (qc) => qc.invalidateQueries({ queryKey: userKeys.all }),
      successText: USER_MESSAGES.deleted,
      errorText: (err) => {
        console.error(err);
        return USER_MESSAGES.deleteError;
      },
    },
    options,
  );
}

/**
 * POST /api/users/{userId}/password-link (issue 33 §2): a new one-time link, shown once by the
 * page; the user's sessions have ended. Nothing the page lists changes.
 */
export function useCreatePasswordLink(options?: ResourceMutationOptions<TPasswordLinkResponse, TUserRow>) {
  return useResourceMutation(
    {
      mutationFn: (user) =>
        api<TPasswordLinkResponse>("POST", `/api/users/${encodeURIComponent(user.id)}/password-link`),
      invalidate: () => undefined,
      successText: () => textsIn(PASSWORD_LINK_TEXTS, currentLanguage()).created,
      errorText: (err) => {
        const serverMessage = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.message;
        return serverMessage
          ? localizeMessage(PASSWORD_LINK_TEXTS, serverMessage)
          : textsIn(PASSWORD_LINK_TEXTS, currentLanguage()).error;
      },
    },
    options,
  );
}
