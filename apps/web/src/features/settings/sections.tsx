import type { TSettingsSection } from "@linewatch/contracts";
import type { ComponentType } from "react";
import { DataSourcesPage } from "./data-sources/DataSourcesPage";
import { MvdMonitorsPage, SvdMonitorsPage } from "./monitors/MonitorsAdminPage";
import { UsersPage } from "./users/UsersPage";

/** The content pane of each Settings section; a missing entry shows "not available yet". */
export const SECTION_PAGES: Partial<Record<TSettingsSection, ComponentType>> = {
  DATA_SOURCES: DataSourcesPage,
  MVD_ANOMALY_MONITORS: MvdMonitorsPage,
  SVD_ANOMALY_MONITORS: SvdMonitorsPage,
  USER_MANAGEMENT: UsersPage,
};
