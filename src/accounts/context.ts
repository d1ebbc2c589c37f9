import type { Database } from '../storage/database.js';
import type { Mailer } from './mailer.js';

/** What every accounts operation runs against; built once by AccountService. */
export interface AccountsContext {
  db: Database;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** null when no email provider is configured: alerts and key deliveries are then recorded `skipped`. */
  mailer: Mailer | null;
  /** Workspace+period pairs whose spend alert is being sent right now, so two usages at once send one alert. */
  alertsInFlight: Set<string>;
}
