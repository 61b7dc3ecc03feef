/** The console's home page: says the console is ready. */
import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Title, useTranslate } from 'react-admin';

export function Dashboard() {
  const translate = useTranslate();
  useEffect(() => {
    document.title = translate('vmarket.title');
  }, [translate]);
  return (
    <Card data-testid="admin-dashboard" sx={{ mt: 2 }}>
      <Title title="vmarket.title" />
      <CardHeader title={translate('vmarket.dashboard.title')} />
      <CardContent>
        <Typography data-testid="admin-ready">{translate('vmarket.dashboard.ready')}</Typography>
      </CardContent>
    </Card>
  );
}
