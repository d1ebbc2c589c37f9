// Webhook deliveries on the queue: a new pending delivery is sent to `webhook-delivery`; a worker attempts it, and a
// delivery still pending afterwards (a failed attempt with retries left) is queued again for its next attempt time.
import { QUEUES, RARE_QUEUE, type JobQueue } from '../storage/queue.js';
import type { WebhookService } from '../webhooks/index.js';

interface DeliveryData {
  deliveryId: string;
}

/** A delivery handed out again before its time (another worker has it) waits at least this long. */
const REDELIVERY_MIN_DELAY_MS = 1000;

/** Queues a delivery unless one is already waiting for it (see JobQueue.sendOnce). */
export function queueDelivery(queue: JobQueue, deliveryId: string, startAfter?: Date): Promise<string | null> {
  return queue.sendOnce<DeliveryData>(QUEUES.webhookDelivery, { deliveryId }, deliveryId, startAfter ? { startAfter } : {});
}

/** Hands new deliveries to the queue, and works them here (up to `concurrency` at once). */
export function workDeliveries(queue: JobQueue, webhooks: WebhookService, concurrency: number): void {
  webhooks.attachQueue((deliveryId) => queueDelivery(queue, deliveryId));
  queue.work<DeliveryData>(QUEUES.webhookDelivery, concurrency, async ({ data }) => {
    const next = await webhooks.deliverQueued(data.deliveryId);
    if (next) await queueDelivery(queue, data.deliveryId, new Date(Math.max(next.getTime(), Date.now() + REDELIVERY_MIN_DELAY_MS)));
    return { next: next?.toISOString() ?? null };
  });
  // The record stays pending: queueOverdueDeliveries finds it again.
  queue.work<DeliveryData>(
    QUEUES.webhookDeliveryDead,
    1,
    async ({ data }) => {
      process.stderr.write(`preflight worker: the queue gave up on delivery ${data.deliveryId} (store errors); it is queued again within minutes\n`);
    },
    RARE_QUEUE,
  );
}

/** Pending deliveries due before `before` lost their queue job (a crash between insert and send): queued again. */
export async function queueOverdueDeliveries(queue: JobQueue, webhooks: WebhookService, before: Date): Promise<void> {
  for (const id of await webhooks.overdue(before)) await queueDelivery(queue, id);
}
