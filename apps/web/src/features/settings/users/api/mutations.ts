import {
  type TAddUserBody,
  type TAddUserResponse,
  type TUpdateUserLocationBody,
  type TUserRole,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../../shared/api/client";
import { sessionKeys } from "../../../../shared/data/session/keys";
import { useMe } from "../../../../shared/data/session/queries";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { userKeys } from "./keys";

function useInvalidateUsers() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: userKeys.all });
}

/** POST /api/add-user?customerId=… (spec settings §7, §8 "Add user"). */
export function useAddUser() {
  const qc = useQueryClient();
  const customerId = useMe().data?.customer.id;
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { customerId: string; body: TAddUserBody }) =>
      api<TAddUserResponse>("POST", `/api/add-user?customerId=${encodeURIComponent(v.customerId)}`, v.body),
    onSuccess: (res) => {
      // Show the new row at once; the refetch brings the server's order.
      qc.setQueryData<TUserRow[]>(userKeys.list(customerId), (rows) => (rows ? [...rows, res.user] : rows));
      void qc.invalidateQueries({ queryKey: userKeys.all });
      snackbar(USER_MESSAGES.added);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        snackbar(USER_MESSAGES.exists, { severity: "error" });
        return;
      }
      console.error(err);
      snackbar(USER_MESSAGES.addError, { severity: "error" });
    },
  });
}

/**
 * Selecting administrator POSTs, selecting user PUTs /api/update-user-roles (spec settings §4
 * "User row"). A 403 is 'Forbidden resource' (§6); any other failure says what went wrong.
 */
export function useSetUserRole() {
  const invalidate = useInvalidateUsers();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { userId: string; customerId: string; role: TUserRole }) =>
      api<null>(v.role === "administrator" ? "POST" : "PUT", "/api/update-user-roles", {
        userId: v.userId,
        role: "administrator",
        customerId: v.customerId,
      }),
    onSuccess: () => snackbar(USER_MESSAGES.roleUpdated),
    onError: (err) => snackbar(roleErrorText(err), { severity: "error" }),
    onSettled: invalidate,
  });
}

export function roleErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status === 403) return USER_MESSAGES.forbidden;
  const serverMessage = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.body.message;
  return typeof serverMessage === "string" && serverMessage ? serverMessage : USER_MESSAGES.roleUpdateError;
}

/** PATCH /api/users/{userId}; the session is re-checked after (spec monitor-forms §7). */
export function useSetUserLocation() {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { userId: string; body: TUpdateUserLocationBody }) =>
      api<null>("PATCH", `/api/users/${encodeURIComponent(v.userId)}`, v.body),
    onSuccess: () => {
      snackbar(USER_MESSAGES.locationSaved);
      void qc.invalidateQueries({ queryKey: sessionKeys.me });
    },
    onError: () => snackbar(USER_MESSAGES.locationSaveError, { severity: "error" }),
    onSettled: () => qc.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /api/users {userId, customerId} deletes a user (spec settings §7). */
export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { userId: string; customerId: string }) => api<null>("POST", "/api/users", v),
    onSuccess: () => snackbar(USER_MESSAGES.deleted),
    onError: (err) => {
      console.error(err);
      snackbar(USER_MESSAGES.deleteError, { severity: "error" });
    },
    onSettled: invalidate,
  });
}
