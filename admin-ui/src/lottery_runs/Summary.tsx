/** A draw's result as the server recomputes it from the stored seed and inputs: winners per plan. */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';

interface PlanResult {
  plan_id: number;
  name_ja: string;
  name_en: string;
  capacity: number;
  wishes: number;
  winners: number;
}

interface RunRecord {
  summary: { entries: number; applications: number; winners: number; plans: PlanResult[] } | null;
}

export function Summary() {
  const record = useRecordContext<RunRecord>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record) return null;
  const summary = record.summary;
  const field = (name: string) => translate(`resources.lottery_runs.fields.${name}`);
  return (
    <div data-testid="lottery-summary">
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        {translate('admin.lottery_runs.summary')}
      </Typography>
      {summary === null ? (
        <Typography>{translate('admin.lottery_runs.no_summary')}</Typography>
      ) : (
        <>
          <Typography>{translate('admin.lottery_runs.summary_totals', summary)}</Typography>
          <div className="vm-table-scroll">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{field('plan')}</TableCell>
                <TableCell align="right">{field('capacity')}</TableCell>
                <TableCell align="right">{field('wishes')}</TableCell>
                <TableCell align="right">{field('winners')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {summary.plans.map((p) => (
                <TableRow key={p.plan_id}>
                  <TableCell>
                    {locale === 'en' ? p.name_en : p.name_ja} (#{p.plan_id})
                  </TableCell>
                  <TableCell align="right">{p.capacity}</TableCell>
                  <TableCell align="right">{p.wishes}</TableCell>
                  <TableCell align="right">{p.winners}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          </div>
        </>
      )}
    </div>
  );
}
