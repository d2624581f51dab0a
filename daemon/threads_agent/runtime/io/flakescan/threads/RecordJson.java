package io.flakescan.threads;

import java.util.List;

/** The schedule record a session ends with, in the contract's shape (docs/threads.md). */
final class RecordJson {
    private RecordJson() {}

    static String write(Session s, List<ThreadState> outlived) {
        Settings set = s.settings;
        Json j = new Json().beginObject();
        j.key("strategy").string(set.strategy).key("seed").string(set.seedText).key("depth").number(set.depth)
                .key("virtual_time").bool(set.virtualTime);
        String replay = s.strategy.replayJson();
        if (s.strategy instanceof Strategy.Replay && ((Strategy.Replay) s.strategy).diverged())
            s.record.inexact("the replay diverged from the recorded decisions");
        j.key("exact").bool(s.record.inexact.isEmpty());
        j.key("inexact_reasons").beginArray();
        int n = 0;
        for (String reason : s.record.inexact) if (n++ < 20) j.string(reason);
        j.endArray();
        j.key("threads").beginArray();
        for (ThreadState t : s.threads) {
            j.beginObject().key("index").number(t.index).key("name").string(t.name);
            if (t.startedAt != null) j.key("started_at").string(t.startedAt);
            if (t.adoptedAt != null) j.key("adopted_at").string(t.adoptedAt);
            j.endObject();
        }
        j.endArray();
        s.record.writeSteps(j);
        j.key("deadlock");
        if (s.deadlockJson == null) j.nul();
        else j.raw(s.deadlockJson);
        j.key("outlived").beginArray();
        for (ThreadState t : outlived) {
            j.beginObject().key("thread").number(t.index).key("name").string(t.name).key("site").string(t.lastSite)
                    .key("abandoned").bool(t.status == ThreadState.Status.ABANDONED).endObject();
        }
        j.endArray();
        j.key("virtual_ms").number(s.model.virtualMs);
        j.key("replay");
        if (replay == null) j.nul();
        else j.raw(replay);
        j.key("test").string(s.testId);
        return j.endObject().toString();
    }
}
