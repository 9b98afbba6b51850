-- The search box's trigram index keeps at most 64 kB of pending entries (issue 13,
-- docs/decisions/list-performance.md, "Sixth pass"): every upload's update of a
-- record adds the row's entries to the pending list (the update is not HOT), and
-- every search reads the whole list, 2.7 ms a search at 2.7 MB. The same index as
-- drizzle-kit would recreate, changed in place: setting the limit rebuilds nothing.
ALTER INDEX "records_search_fields_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
-- What is pending now goes into the index at once.
SELECT gin_clean_pending_list('records_search_fields_idx');
