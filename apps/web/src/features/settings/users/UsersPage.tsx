import { PASSWORD_LINK_TEXTS, type TUserRole, type TUserRow, USER_MESSAGES } from "@linewatch/contracts";
import { Stack, Typography } from "@mui/material";
import { lazy, useCallback, useMemo, useRef, useState } from "react";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { useFeatureFlags, useMe } from "../../../shared/data/session/queries";
import { useTexts } from "../../../shared/i18n/language";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { QueryState } from "../../../shared/ui/QueryState";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import type { GridApi } from "../../../shared/ui/settings/settings-grid";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import {
  useAddUser,
  useCreatePasswordLink,
  useDeleteUser,
  useSetUserLocation,
  useSetUserRole,
} from "./api/mutations";
import { useUsers } from "./api/queries";
import { UsersGrid } from "./components/UsersGrid";
import type { TUserGridRow } from "./components/userColumns";
import { type LocationKey, locationBodyOf, locationKeyOf, locationOptions, plantKey } from "./users.location";

// Loads when first opened (issue #17).
const PasswordLinkDialog = lazy(() =>
  import("./components/PasswordLinkDialog").then((m) => ({ default: m.PasswordLinkDialog })),
);

/** Settings → Users (requirements.md settings §2.6; administrators only, the Settings menu decides). */
export function UsersPage() {
  const me = useMe().data;
  const flags = useFeatureFlags().data?.flags;
  const { plant, plants } = usePlantLine();
  const usersQ = useUsers();
  const snackbar = useSnackbar();
  const addUser = useAddUser();
  const setRole = useSetUserRole();
  const setLocation = useSetUserLocation();
  const deleteUser = useDeleteUser();
  const createLink = useCreatePasswordLink();
  const L = useTexts(PASSWORD_LINK_TEXTS);
  // The user just added (or sent a new link) and the one-time link are kept until the link dialog
  // has finished closing; `isReset` says which of the two it is.
  const dialogs = useDialogs<{
    delete: TUserGridRow;
    confirmLink: TUserGridRow;
    link: { id: string; email: string; link: string; isReset?: boolean };
  }>();
  const deleteTarget = dialogs.data("delete");
  const linkTarget = dialogs.data("confirmLink");
  const added = dialogs.data("link");
  const apiRef = useRef<GridApi | null>(null);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const customerId = me?.customer.id;
  const viewerIsProviderStaff = me?.isProviderStaff ?? false;
  const showLocation = flags?.userLocation ?? false;
  const canDelete = flags?.userDeletion ?? false;

  const users = useMemo<TUserGridRow[]>(
    () => (usersQ.data ?? []).map((u) => ({ ...u, location: locationKeyOf(u) })),
    [usersQ.data],
  );

  const locationOptionsOf = useCallback(
    (row: TUserGridRow) =>
      locationOptions({
        plants,
        viewerIsProviderStaff,
        rowIsProviderStaff: row.isProviderStaff,
        current: row.isNew ? undefined : row,
      }),
    [plants, viewerIsProviderStaff],
  );

  /** Marks a row busy while one of its changes is on its way. */
  const whileBusy = useCallback(async (id: string, work: () => Promise<unknown>) => {
    setBusyIds((s) => new Set(s).add(id));
    try {
      await work();
    } catch {
      // The mutation has shown its message.
    } finally {
      setBusyIds((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }, []);

  const handleAdd = async (values: { email: string; location: LocationKey }): Promise<TUserRow | null> => {
    // The email's contract rule (zod) loads with the first save, not with the page (issue #17).
    const { validateNewUser } = await import("./users.form");
    const invalid = validateNewUser({ email: values.email, customerId, plantId: plant?.id });
    if (invalid || !customerId || !plant) {
      snackbar(invalid ?? USER_MESSAGES.customerOrPlantUndefined, { severity: "error" });
      return null;
    }
    // Without the location column the new user belongs to the selected plant.
    const location = showLocation ? values.location : plantKey(plant.id);
    try {
      const res = await addUser.mutateAsync({
        customerId,
        body: { email: values.email.trim(), ...locationBodyOf(location, plants) },
      });
      dialogs.open("link", { id: res.user.id, email: res.user.email, link: res.passwordLink });
      return res.user;
    } catch {
      return null;
    }
  };

  const { mutateAsync: mutateRole } = setRole;
  const handleRoleChange = useCallback(
    (row: TUserGridRow, role: TUserRole) => {
      if (!customerId) return;
      void whileBusy(row.id, () => mutateRole({ userId: row.id, customerId, role }));
    },
    [customerId, mutateRole, whileBusy],
  );

  const { mutateAsync: mutateLocation } = setLocation;
  const handleLocationChange = useCallback(
    (row: TUserGridRow, key: LocationKey) => {
      if (key === row.location) return;
      void whileBusy(row.id, () => mutateLocation({ userId: row.id, body: locationBodyOf(key, plants) }));
    },
    [plants, mutateLocation, whileBusy],
  );

  // Back to the new user's row, so the keyboard carries on from there.
  const handleLinkExited = () => {
    if (added && apiRef.current?.getRow(added.id)) apiRef.current.setCellFocus(added.id, "email");
    dialogs.forget("link");
  };

  const { open: openDialog } = dialogs;
  const handleDelete = useCallback((row: TUserGridRow) => openDialog("delete", row), [openDialog]);
  const handleSendPasswordLink = useCallback(
    (row: TUserGridRow) => openDialog("confirmLink", row),
    [openDialog],
  );
  // Not one's own row (the user menu changes one's own password), and a provider-staff row only for
  // provider staff (as its location).
  const canSendPasswordLink = useCallback(
    (row: TUserGridRow) => row.id !== me?.id && (!row.isProviderStaff || viewerIsProviderStaff),
    [me?.id, viewerIsProviderStaff],
  );

  const handleLinkConfirm = async () => {
    if (!linkTarget) return;
    try {
      const res = await createLink.mutateAsync(linkTarget);
      dialogs.open("link", {
        id: linkTarget.id,
        email: linkTarget.email,
        link: res.passwordLink,
        isReset: true,
      });
    } catch {
      // Shown by the mutation.
      dialogs.close();
    }
  };

  const handleDeleteConfirm = async () => {
    if (!deleteTarget || !customerId) return;
    try {
      await deleteUser.mutateAsync({ userId: deleteTarget.id, customerId });
    } catch {
      // Shown by the mutation.
    }
    dialogs.close();
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        Users
      </Typography>
      <QueryState
        isLoading={usersQ.isLoading || !me || !flags}
        error={usersQ.error}
        onRetry={() => usersQ.refetch()}
        errorTitle="Error loading users"
      >
        <UsersGrid
          apiRef={apiRef}
          users={users}
          timeZone={plant?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone}
          showLocation={showLocation}
          canDelete={canDelete}
          meId={me?.id}
          defaultLocation={
            plant ? plantKey(plant.id) : locationKeyOf({ locationName: null, locationPlantId: null })
          }
          busyIds={busyIds}
          locationOptionsOf={locationOptionsOf}
          onAdd={handleAdd}
          onRoleChange={handleRoleChange}
          onLocationChange={handleLocationChange}
          onDelete={handleDelete}
          canSendPasswordLink={canSendPasswordLink}
          passwordLinkLabel={L.actionLabel}
          onSendPasswordLink={handleSendPasswordLink}
        />
      </QueryState>
      <ConfirmDialog
        open={dialogs.isOpen("delete")}
        title={deleteTarget ? USER_MESSAGES.deleteConfirm(deleteTarget.email) : ""}
        confirmLabel="Delete"
        destructive
        busy={deleteUser.isPending}
        onConfirm={handleDeleteConfirm}
        onCancel={dialogs.close}
      />
      <ConfirmDialog
        open={dialogs.isOpen("confirmLink")}
        title={linkTarget ? L.confirmTitle(linkTarget.email) : ""}
        confirmLabel={L.confirm}
        cancelLabel={L.cancel}
        destructive
        busy={createLink.isPending}
        onConfirm={handleLinkConfirm}
        onCancel={dialogs.close}
      >
        <Typography>{L.confirmBody}</Typography>
      </ConfirmDialog>
      <MountWhenOpened isOpen={dialogs.isOpen("link")}>
        <PasswordLinkDialog
          open={dialogs.isOpen("link")}
          email={added?.email ?? ""}
          link={added?.link ?? ""}
          note={added?.isReset ? L.note : undefined}
          onClose={dialogs.close}
          onExited={handleLinkExited}
        />
      </MountWhenOpened>
    </Stack>
  );
}
