import type { Logger } from 'pino';
import type { AccessService, UseRequestRecord } from '../access/model.js';

/** The actor the admin command line records its decisions with. */
export const CLI_ACTOR = 'operator:cli';
/** Requests announced per look at most: a burst of CLI decisions is announced over several looks. */
const MAX_PER_LOOK = 100;

/**
 * Without Redis, the admin CLI (another process) cannot reach this instance's subscribers: every `intervalMs` the
 * instance looks in the store's audit trail for decisions recorded by the CLI since its last look and announces
 * those requests as it announces its own. The first look only notes where the trail ends, so a restart announces
 * nothing old. With Redis the CLI publishes on the event channel itself and this is not started.
 */
export function announceCliDecisions(options: {
  readonly access: AccessService;
  readonly intervalMs: number;
  readonly announce: (request: UseRequestRecord) => void;
  readonly logger: Logger;
}): { close(): void } {
  const { access, announce, logger } = options;
  let position: string | undefined;
  let looking = false;
  const look = async (): Promise<void> => {
    if (looking) return;
    looking = true;
    try {
      const found = await access.changedBy(CLI_ACTOR, position, MAX_PER_LOOK);
      position = found.position;
      for (const request of found.requests) announce(request);
    } catch (error) {
      logger.warn({ err: error }, 'could not look for decisions made with the admin CLI; trying again');
    } finally {
      looking = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), options.intervalMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
