// The services a server process runs over one data dir, composed once for `preflight serve` and `preflight worker`:
// jobs (with the account rules and webhook announcements attached), accounts and webhooks.
import { AccountService } from '../accounts/index.js';
import type { Config } from '../config.js';
import { policyFromEnv, postJson } from '../ingress/remote.js';
import { PreflightService } from '../service.js';
import { WebhookService } from '../webhooks/index.js';

export interface ServerServices {
  service: PreflightService;
  accounts: AccountService;
  webhooks: WebhookService;
}

export async function openServerServices(config: Config): Promise<ServerServices> {
  const service = await PreflightService.open({ home: config.home, env: config.env });
  const accounts = new AccountService({ db: service.records, env: config.env });
  const webhooks = new WebhookService({
    db: service.records,
    env: config.env,
    home: config.home,
    send: (url, body, headers, o) => postJson(url, body, headers, policyFromEnv(config.env), o),
  });
  service.attachWebhooks(webhooks);
  service.attachAccounts(accounts);
  return { service, accounts, webhooks };
}
