-- Every upload and every agent's complete looks up the histogram scale a metric's earlier results
-- used (server/services/results.ts histogramScales). With only the metricId index, a metric whose
-- results carry no histogram (summaries) was scanned in full each time; this partial index holds
-- only results with a scale, so the look-up reads one entry or none.
CREATE INDEX "RunMetricResult_scaled" ON "RunMetricResult"("metricId") WHERE "histogramScale" IS NOT NULL;
