/** The record detail page, loaded lazily by the router (uPlot and Leaflet load later still, with the chart and the map). */
export { RecordDetailPage } from './record-detail-page';
