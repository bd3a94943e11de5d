import { createReportRoute } from './create-handler';
import { FullReportRequestSchema } from './schemas';

/** POST /health-score/report (spec §4.2): a full report over every health event. */
export const handler = createReportRoute(FullReportRequestSchema, (body) => ({
  variant: 'full',
  uidExt: body.uid_ext,
  asOf: body.report_metadata.event_asof_dtutc,
  configuration: body.report_metadata.configuration,
  events: body.health_events,
}));
