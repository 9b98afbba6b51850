import type { TRecordStatistics } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import CardActionArea from '@mui/material/CardActionArea';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { ValueLoading } from '../../../components/page-loading';
import type { StatisticCard } from '../statistics';

function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : value.toLocaleString('en-US');
}

function CardBody({
  card,
  value,
  loading,
}: {
  card: StatisticCard;
  value: number | undefined;
  loading: boolean;
}) {
  const alarming = card.tone === 'alarm' && (value ?? 0) > 0;
  return (
    <Box sx={{ p: { xs: 1.5, sm: 2 }, height: '100%' }}>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }} noWrap>
        {card.label}
      </Typography>
      <Typography
        variant="h4"
        component="p"
        sx={{
          mt: 0.5,
          fontVariantNumeric: 'tabular-nums',
          color: alarming ? 'error.main' : 'text.primary',
          lineHeight: 1.2,
        }}
      >
        {loading ? <ValueLoading width="60%" /> : formatCount(value)}
      </Typography>
    </Box>
  );
}

/** The statistic cards: a number each, a link to the filtered list where one exists. */
export function StatisticCards({
  cards,
  statistics,
  loading,
  stale,
}: {
  cards: readonly StatisticCard[];
  statistics: TRecordStatistics | undefined;
  loading: boolean;
  /** The numbers shown are the previous ones while new ones load. */
  stale: boolean;
}) {
  return (
    <Box
      component="ul"
      aria-label="Record statistics"
      aria-busy={loading || stale || undefined}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, 1fr)', xl: 'repeat(8, 1fr)' },
        gap: { xs: 1, sm: 1.5 },
        opacity: stale ? 0.6 : 1,
        transition: 'opacity 150ms',
      }}
    >
      {cards.map((card) => {
        const value = statistics?.[card.key];
        const alarming = card.tone === 'alarm' && (value ?? 0) > 0;
        return (
          <Box component="li" key={card.key}>
            <Paper
              variant="outlined"
              sx={{
                height: '100%',
                overflow: 'hidden',
                borderLeft: 4,
                borderLeftColor: alarming
                  ? 'error.main'
                  : card.tone === 'ok' && (value ?? 0) > 0
                    ? 'success.main'
                    : 'divider',
              }}
            >
              {card.href ? (
                <CardActionArea
                  component={RouterLink}
                  to={card.href}
                  title={`Show the ${card.description}`}
                  sx={{ height: '100%' }}
                >
                  <CardBody card={card} value={value} loading={loading} />
                </CardActionArea>
              ) : (
                <CardBody card={card} value={value} loading={loading} />
              )}
            </Paper>
          </Box>
        );
      })}
    </Box>
  );
}
