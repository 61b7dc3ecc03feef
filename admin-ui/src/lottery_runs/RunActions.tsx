/**
 * The steps of a draw on its page (buttons of its show page's toolbar): Preview (draw for staff; again until published) and Publish
 * (apply the previewed draw, after a confirmation), each `PUT /admin/api/lottery_runs/{id}` with
 * the state to move to. Hidden for roles that may not edit lottery runs; the server refuses
 * them anyway, and answers a second publish with a message that nothing changed.
 */
import { useState } from 'react';
import {
  Button,
  Confirm,
  useCanAccess,
  useNotify,
  useRecordContext,
  useRefresh,
  useUpdate,
} from 'react-admin';

interface RunRecord {
  id: number;
  state: 'committed' | 'preview' | 'published';
}

export function RunActions() {
  const record = useRecordContext<RunRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'lottery_runs', action: 'edit' });
  const [confirming, setConfirming] = useState(false);
  const [update, { isPending }] = useUpdate();
  if (!record || !canAccess || record.state === 'published') return null;

  const move = (state: 'preview' | 'published', done: string) =>
    update(
      'lottery_runs',
      { id: record.id, data: { state }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(done, { type: 'success' });
          refresh();
        },
        onError: (error) => notify((error as Error)?.message ?? 'ra.notification.http_error', { type: 'error' }),
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <>
      <Button
        label="admin.lottery_runs.preview"
        disabled={isPending}
        onClick={() => move('preview', 'admin.lottery_runs.previewed')}
        data-testid="lottery-preview"
      />
      <Button
        label="admin.lottery_runs.publish"
        variant="contained"
        disabled={isPending || record.state !== 'preview'}
        onClick={() => setConfirming(true)}
        data-testid="lottery-publish"
      />
      <Confirm
        isOpen={confirming}
        loading={isPending}
        title="admin.lottery_runs.confirm_publish_title"
        content="admin.lottery_runs.confirm_publish"
        onConfirm={() => move('published', 'admin.lottery_runs.published')}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
