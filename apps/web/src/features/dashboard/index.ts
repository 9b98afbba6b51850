/** The dashboard. The page loads lazily through `./routes`; nothing else is shared. */
export {};
