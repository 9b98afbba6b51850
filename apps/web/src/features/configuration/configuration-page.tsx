import { CALIBRATION_UPLOAD_PERMISSION } from '@coldtrace/contract';
import { timeZoneAbbreviation, timeZoneLabel } from '@coldtrace/domain';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useUpdateSearch } from '../../lib/url-search';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { useAppSettings } from '../../lib/app-settings';
import { hasPermission, sessionOrganization } from '../../lib/session';
import { useCurrentUser } from '../session';
import { configurationAccess } from './access';
import { CarriersSection } from './components/carriers-section';
import { DisplayRulesSection, mayManageDisplayRules } from './components/display-rules-section';
import { EvidenceSection, mayVerifyEvidence } from './components/evidence-section';
import { CalibrationCertificatesSection } from './components/calibration-certificates-section';
import { CalibrationSettingsCard } from './components/calibration-settings-card';
import { GeoFenceCard } from './components/geo-fence-card';
import { NoDataAlarmCard } from './components/no-data-alarm-card';
import { ReleaseInTransitCard } from './components/release-in-transit-card';
import { SecondFactorCard } from './components/second-factor-card';
import { NotificationsSection } from './components/notifications-section';
import { ProductsSection } from './components/products-section';
import { TravelLocationsSection } from './components/travel-locations-section';

/** The tabs of the page, kept in the URL (`?tab=carriers`) so a reload or a link reopens the same one. */
export const CONFIGURATION_TABS = [
  { value: 'products', label: 'Products' },
  { value: 'carriers', label: 'Carriers' },
  { value: 'travel-locations', label: 'Travel locations' },
  { value: 'geo-fence', label: 'Geo-fence' },
  { value: 'calibration', label: 'Calibration' },
  { value: 'alarms', label: 'Alarms' },
  { value: 'notifications', label: 'Notifications' },
  { value: 'display-rules', label: 'Display rules' },
  { value: 'evidence', label: 'Evidence' },
] as const;
export type ConfigurationTab = (typeof CONFIGURATION_TABS)[number]['value'];

/** Tabs only some users see: Display rules and Evidence need the organization administration permission. */
export function visibleConfigurationTabs(options: {
  displayRules: boolean;
  evidence: boolean;
}): readonly (typeof CONFIGURATION_TABS)[number][] {
  return CONFIGURATION_TABS.filter(
    (tab) =>
      (tab.value !== 'display-rules' || options.displayRules) &&
      (tab.value !== 'evidence' || options.evidence),
  );
}

/** The tab a `tab` query value names; the first tab for anything else (or a tab not shown). */
export function configurationTab(
  value: string | null,
  tabs: readonly (typeof CONFIGURATION_TABS)[number][] = CONFIGURATION_TABS,
): ConfigurationTab {
  return tabs.find((tab) => tab.value === value)?.value ?? 'products';
}

/**
 * /configuration (spec section 2): products, carriers, travel locations and
 * the organization's geo-fence. Needs sysAdminLoc or sysAdminUser; the server
 * checks each call anyway.
 */
export function ConfigurationPage() {
  const user = useCurrentUser();
  const access = configurationAccess(user);
  const { degreesUnit, timeZone } = useAppSettings();
  const [params] = useSearchParams();
  const updateSearch = useUpdateSearch();
  const [notice, setNotice] = useState<{ key: number; text: string } | null>(null);
  const [noticeOpen, setNoticeOpen] = useState(false);
  const tabsId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });

  if (!access.view) {
    return (
      <Page title="Configuration">
        <EmptyState
          icon={<LockOutlined />}
          action={
            <Button component={RouterLink} to="/" variant="outlined">
              Go to the dashboard
            </Button>
          }
        >
          You do not have access to Configuration. Managing products, carriers, travel locations and
          the geo-fence needs the location or user administration permission in this organization;
          ask one of its administrators if you need it.
        </EmptyState>
      </Page>
    );
  }

  const tabs = visibleConfigurationTabs({
    displayRules: mayManageDisplayRules(user),
    evidence: mayVerifyEvidence(user),
  });
  const tab = configurationTab(params.get('tab'), tabs);
  const selectTab = (value: ConfigurationTab) =>
    updateSearch((current) => {
      const next = new URLSearchParams(current);
      if (value === 'products') next.delete('tab');
      else next.set('tab', value);
      return next;
    });
  const showNotice = (text: string) => {
    setNotice({ key: Date.now(), text });
    setNoticeOpen(true);
  };
  const organization = sessionOrganization(user);
  const abbreviation = timeZoneAbbreviation(timeZone, new Date());
  const zone =
    abbreviation === timeZone
      ? timeZoneLabel(timeZone)
      : `${timeZoneLabel(timeZone)} (${abbreviation})`;

  return (
    <Page
      title="Configuration"
      subtitle={
        <>
          {organization ? `${organization.name}: ` : null}
          temperatures in °{degreesUnit}, times in {zone}.
        </>
      }
    >
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2.5 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: ConfigurationTab) => selectTab(value)}
          aria-label="Configuration sections"
          // Phones: five or six tabs do not fit 375 px; they scroll, with arrows.
          variant={phone ? 'scrollable' : 'standard'}
          scrollButtons={phone}
          allowScrollButtonsMobile
        >
          {tabs.map((item) => (
            <Tab
              key={item.value}
              value={item.value}
              label={item.label}
              id={`${tabsId}-tab-${item.value}`}
              aria-controls={`${tabsId}-panel-${item.value}`}
              sx={{ minWidth: { xs: 0, sm: 90 }, px: { xs: 1, sm: 2 }, lineHeight: 1.25 }}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`${tabsId}-panel-${tab}`} aria-labelledby={`${tabsId}-tab-${tab}`}>
        {tab === 'products' ? (
          <ProductsSection access={access} unit={degreesUnit} onSaved={showNotice} />
        ) : null}
        {tab === 'carriers' ? (
          <CarriersSection access={access} timeZone={timeZone} onSaved={showNotice} />
        ) : null}
        {tab === 'travel-locations' ? (
          <TravelLocationsSection access={access} onSaved={showNotice} />
        ) : null}
        {tab === 'geo-fence' ? <GeoFenceCard access={access} onSaved={showNotice} /> : null}
        {tab === 'calibration' ? (
          <Box sx={{ display: 'grid', gap: 2.5 }}>
            <CalibrationSettingsCard access={access} onSaved={showNotice} />
            <CalibrationCertificatesSection
              mayUpload={hasPermission(user, CALIBRATION_UPLOAD_PERMISSION)}
              onSaved={showNotice}
            />
          </Box>
        ) : null}
        {tab === 'alarms' ? (
          <Box sx={{ display: 'grid', gap: 2.5 }}>
            <NoDataAlarmCard access={access} onSaved={showNotice} />
            <ReleaseInTransitCard access={access} onSaved={showNotice} />
            <SecondFactorCard access={access} onSaved={showNotice} />
          </Box>
        ) : null}
        {tab === 'notifications' ? (
          <NotificationsSection user={user} timeZone={timeZone} onSaved={showNotice} />
        ) : null}
        {tab === 'display-rules' ? <DisplayRulesSection user={user} onSaved={showNotice} /> : null}
        {tab === 'evidence' ? <EvidenceSection /> : null}
      </Box>
      <Snackbar
        key={notice?.key}
        open={noticeOpen}
        autoHideDuration={5000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setNoticeOpen(false);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        sx={{ bottom: { xs: 56, sm: 60 } }}
      >
        <Alert
          severity="success"
          variant="filled"
          onClose={() => setNoticeOpen(false)}
          sx={{ width: '100%', maxWidth: 560 }}
        >
          {notice?.text}
        </Alert>
      </Snackbar>
    </Page>
  );
}
