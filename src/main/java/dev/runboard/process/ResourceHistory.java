package dev.runboard.process;

import dev.runboard.session.ResourcePoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's CPU, RSS and output rate over its whole life in bounded memory: when full, pairs of
 * neighbouring points merge (mean CPU and rate, max RSS), so a long session keeps its shape at a
 * coarser step. Guarded by its owner.
 */
public final class ResourceHistory {
    private final int capacity;
    private final List<ResourcePoint> points = new ArrayList<>();
    private int merge = 1;
    private int pending;
    private double cpuSum;
    private long rssMax;
    private double rateSum;

    ResourceHistory(int capacity) {
        this.capacity = capacity;
    }

    void add(ResourcePoint p) {
        cpuSum += p.cpuPercent();
        rssMax = Math.max(rssMax, p.rssBytes());
        rateSum += p.outputBytesPerSecond();
        if (++pending < merge) {
            return;
        }
        points.add(new ResourcePoint(p.at(), cpuSum / pending, rssMax, rateSum / pending));
        pending = 0;
        cpuSum = 0;
        rssMax = 0;
        rateSum = 0;
        if (points.size() >= capacity) {
            List<ResourcePoint> halved = new ArrayList<>(capacity / 2 + 1);
            for (int i = 0; i + 1 < points.size(); i += 2) {
                ResourcePoint a = points.get(i);
                ResourcePoint b = points.get(i + 1);
                halved.add(new ResourcePoint(b.at(), (a.cpuPercent() + b.cpuPercent()) / 2, Math.max(a.rssBytes(), b.rssBytes()),
                        (a.outputBytesPerSecond() + b.outputBytesPerSecond()) / 2));
            }
            if (points.size() % 2 == 1) {
                halved.add(points.get(points.size() - 1));
            }
            points.clear();
            points.addAll(halved);
            merge *= 2;
        }
    }

    List<ResourcePoint> points() {
        return List.copyOf(points);
    }

    static Duration span(List<ResourcePoint> points) {
        return points.size() < 2 ? Duration.ZERO : Duration.between(points.get(0).at(), points.get(points.size() - 1).at());
    }
}
