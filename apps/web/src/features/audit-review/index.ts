/** The audit-trail review (issue 37 item 6). The page loads lazily through `./routes`; nothing else is shared yet. */
export {};
