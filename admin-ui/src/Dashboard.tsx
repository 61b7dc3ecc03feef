/**
 * The console's home page: the cards of what needs attention (`/admin/api/dashboard`, per the
 * role's areas), each with its latest items and a link to the filtered list.
 */
import { Card, CardContent, CardHeader, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Link, Title, useBasename, useDataProvider, useGetIdentity, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, DashboardCard } from './dataProvider';

function AttentionCard({ card }: { card: DashboardCard }) {
  const translate = useTranslate();
  // Links are not relative to the console's basename: `/inquiries` would leave the console.
  const basename = useBasename();
  const to = `${basename}/${card.resource}?filter=${encodeURIComponent(JSON.stringify(card.filter))}`;
  return (
    <Card data-testid={`card-${card.key}`} sx={{ mt: 2 }}>
      <CardHeader title={translate(`admin.dashboard.cards.${card.key}.title`)} />
      <CardContent>
        {card.count === 0 ? (
          <Typography>{translate(`admin.dashboard.cards.${card.key}.empty`)}</Typography>
        ) : (
          <>
            <List dense>
              {card.items.map((item) => (
                <ListItem key={item.id}>
                  <ListItemText primary={item.title} secondary={item.detail} />
                </ListItem>
              ))}
            </List>
            <Link to={to}>{translate('admin.dashboard.show_all', { count: card.count })}</Link>
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function Dashboard() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { identity } = useGetIdentity();
  const [data, setData] = useState<{ cards: DashboardCard[] } | null>(null);
  useEffect(() => {
    let live = true;
    dataProvider.dashboard().then(
      (board) => live && setData(board),
      () => live && setData({ cards: [] }),
    );
    return () => {
      live = false;
    };
  }, [dataProvider]);
  useEffect(() => {
    document.title = translate('admin.title');
  }, [translate]);
  const cards = data?.cards ?? [];
  return (
    <Card data-testid="admin-dashboard" sx={{ mt: 2 }}>
      <Title title="admin.title" />
      <CardHeader title={translate('admin.dashboard.title')} />
      <CardContent>
        <Typography data-testid="admin-ready">
          {translate('admin.dashboard.welcome', { name: identity?.fullName ?? '' })}
        </Typography>
        {data && cards.length === 0 && <Typography>{translate('admin.dashboard.nothing')}</Typography>}
        {cards.map((card) => (
          <AttentionCard key={card.key} card={card} />
        ))}
      </CardContent>
    </Card>
  );
}
