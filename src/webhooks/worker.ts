// A background loop that runs one pass, waits, and runs the next: passes never overlap, and the timer never keeps the
// process alive.
export class DrainLoop {
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private active = false;

  constructor(
    private readonly runPass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  get running(): boolean {
    return this.active;
  }

  start(intervalMs: number): void {
    if (this.active) return;
    this.active = true;
    const schedule = () => {
      if (!this.active) return;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pass = this.runPass()
          .catch(this.onError)
          .finally(() => {
            this.pass = null;
            schedule();
          });
      }, intervalMs);
      this.timer.unref();
    };
    schedule();
  }

  /** Stops scheduling passes and waits for one in progress to end. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
  }
}
