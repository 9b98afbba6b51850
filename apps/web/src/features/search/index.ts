/** Search: the top-bar search box. The results page loads lazily through `./routes`. */
export { SearchBox } from './components/search-box';
export { searchHref } from './search-params';
