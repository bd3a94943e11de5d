import { createReportRoute } from './create-handler';
import { CondensedReportRequestSchema } from './schemas';

/** POST /health-score/report/condensed (spec §4.3): a two-page report of one health event. */
export const handler = createReportRoute(CondensedReportRequestSchema, (body) => ({
  variant: 'condensed',
  uidExt: body.uid_ext,
  asOf: body.report_metadata.event_asof_dtutc,
  configuration: body.report_metadata.configuration,
  events: [body.health_event],
}));
