import type { FastifyInstance } from 'fastify';
import {
  alarmEscalationWorker,
  onAlarmRaisedEmail,
  summaryWorker,
  tripEventWorker,
} from './modules/alarm-mail/plugin';
import { raiseNoDataAlarms } from './modules/alarms';
import { anchorAll, signingKeyFrom } from './modules/evidence';
import { mailSendWorker } from './modules/mail/plugin';
import { notifyAlarmsRaised } from './modules/notifications';
import { deleteExpiredPasswordTokens, deleteExpiredUserTokens } from './modules/identity';
import { passwordResetWorker } from './modules/identity/plugin';
import { foldPiledCounts, foldPiledTagSets } from './modules/records/plugin';
import { reportWorker } from './modules/reports/plugin';
import { scrubDeadInvitationLinks } from './modules/users';
import { webhookDeliverWorker, webhookEventWorker } from './modules/integrations/plugin';
import { alarmsRaisedNotified } from './observability/alarm-latency';
import { jobCatalogue, jobNames, type JobData, type JobName } from './jobs/catalogue';
import type { JobContext } from './jobs/queue';

/**
 * The worker of every job of the catalogue, registered at start (`app.ts`),
 * before the queue starts. This table sits above the modules (it imports
 * their workers); the catalogue it reads sits below them, so a module that
 * publishes a job never imports the module that handles it.
 */

type WorkerFactory<N extends JobName> = (
  app: FastifyInstance,
) => (data: JobData<N>, job: JobContext) => Promise<void>;

const workers: { [N in JobName]: WorkerFactory<N> } = {
  /**
   * One transaction: the bell notifications (notifications module), then the
   * alarm e-mails (alarm-mail module). Both are idempotent (a notification is
   * unique per user and alarm; each alarm is e-mailed by one event only).
   */
  'alarm.raised': (app) => async (event) => {
    await app.db.transaction(async (tx) => {
      await notifyAlarmsRaised(tx, event);
      await onAlarmRaisedEmail(app, tx, event);
    });
    await alarmsRaisedNotified(app.db, event);
  },
  'trip.event': tripEventWorker,
  'alarm.escalate': alarmEscalationWorker,
  'mail.send': mailSendWorker,
  'report.generate': reportWorker,
  'password.reset-request': passwordResetWorker,
  'webhook.event': webhookEventWorker,
  'webhook.deliver': webhookDeliverWorker,
  'notification.summaries': summaryWorker,
  /** The no-data alarms (alarms module, docs/decisions/no-data-alarm.md). */
  'alarm.no-data': (app) => async () => {
    const raised = await raiseNoDataAlarms(app.db, app.jobs);
    if (raised.length > 0) app.log.info({ raised }, 'no-data alarms raised');
  },
  /**
   * User tokens (tokens module) and password links (password module) past their
   * expiry; the stored mail keeps no password or invitation link (users module)
   * that no longer works.
   */
  'tokens.purge-expired': (app) => async () => {
    const now = new Date();
    const userTokens = await deleteExpiredUserTokens(app.db, now, app.config.tokenTtlDays.max);
    const passwordLinks = await deleteExpiredPasswordTokens(app.db, now);
    const invitationLinks = await scrubDeadInvitationLinks(app.db, now);
    app.log.info(
      {
        userTokens,
        passwordLinks: passwordLinks.tokens,
        storedLinks: passwordLinks.storedLinks,
        invitationLinks,
      },
      'expired tokens purged',
    );
  },
  /**
   * The maintained counts (records module, docs/decisions/list-performance.md, "Kept counts"):
   * each run folds the hours and the tag days touched since this process's
   * last run (all, after a start).
   */
  /** The evidence chain's anchors (evidence module, docs/decisions/evidence-chain.md). */
  'evidence.anchor': (app) => {
    const key = signingKeyFrom(app.config.secretKey);
    return async () => {
      const anchored = await anchorAll(app.db, key);
      if (anchored > 0) app.log.info({ anchored }, 'evidence chains anchored');
    };
  },
  'counts.fold': (app) => {
    let since = 0;
    let tagSince = 0;
    return async () => {
      const folded = await foldPiledCounts(app.db, since);
      since = folded.through;
      if (folded.organizations + folded.hours > 0) app.log.info({ folded }, 'count rows folded');
      const tagSets = await foldPiledTagSets(app.db, tagSince);
      tagSince = tagSets.through;
      if (tagSets.organizations + tagSets.days > 0) app.log.info({ tagSets }, 'tag sets folded');
    };
  },
};

/**
 * Registers the catalogue's workers (each checks its payload against the
 * job's schema) and the schedules of the jobs that have one.
 */
export function registerWorkers(app: FastifyInstance): void {
  for (const name of jobNames) register(app, name);
}

function register<N extends JobName>(app: FastifyInstance, name: N): void {
  const handler = workers[name](app);
  const { payload, settings } = jobCatalogue[name];
  app.jobs.work<object>(
    name,
    async (data, job) => handler(payload.parse(data) as JobData<N>, job),
    settings(app.config),
  );
  const definition = jobCatalogue[name];
  if ('cron' in definition) app.jobs.schedule(name, definition.cron);
}
