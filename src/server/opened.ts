import type { Logger } from 'pino';

/** A start-up step that failed: `main` logs it with its facts and exits 1. */
export class AssembleError extends Error {
  constructor(
    message: string,
    readonly facts: Readonly<Record<string, unknown>>,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** What one concern of the server opened (its parts), and how to close what it opened. */
export interface Opened<Parts> {
  readonly parts: Parts;
  /** Closes what the concern opened, newest first (a `ClosingStack` when there are several). */
  close(): Promise<void>;
}

/**
 * Closes in the reverse of the order things were opened, awaiting each; a close that fails is logged and the others
 * still run. Closing twice closes once.
 */
export class ClosingStack {
  readonly #closes: (() => Promise<void>)[] = [];

  constructor(private readonly logger: Logger) {}

  /** Keeps the concern's close for later and hands back its parts. */
  keep<Parts>(opened: Opened<Parts>): Parts {
    this.push(() => opened.close());
    return opened.parts;
  }

  push(close: () => Promise<void>): void {
    this.#closes.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.#closes.splice(0).reverse())
      await close().catch((error: unknown) => this.logger.error({ err: error }, 'close failed'));
  }
}

/**
 * A concern that opens several things: `open` pushes each one's close on the stack it is given. Should it fail part
 * way, what it had opened is closed before the failure goes on.
 */
export async function openSeveral<Parts>(
  logger: Logger,
  open: (opened: ClosingStack) => Parts | Promise<Parts>,
): Promise<Opened<Parts>> {
  const opened = new ClosingStack(logger);
  try {
    return { parts: await open(opened), close: () => opened.close() };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
