# ratings.gp — gnuplot script run by demo.sh: a few players' ratings per
# period with their 95 % bands (rating +- 2 RD) and their hidden strengths.
# Input demo/out/ratings.dat: one block per player, its first line the name,
# then "period rating lower upper strength" rows.
set terminal pngcairo size 1000,600 font "sans,11"
set output "demo/out/ratings.png"
set title "Demo league: ratings with 95 % intervals (bands) and hidden strengths (dashed)"
set xlabel "rating period"
set ylabel "rating"
set key outside right top
set grid ytics
set xrange [1:20]
set xtics 1
colors = "#1f77b4 #d62728 #2ca02c #9467bd"
plot for [i=0:3] "demo/out/ratings.dat" index i using 1:3:4 with filledcurves \
         fillcolor rgb word(colors, i + 1) fillstyle transparent solid 0.15 notitle, \
     for [i=0:3] "demo/out/ratings.dat" index i using 1:2 with linespoints \
         linecolor rgb word(colors, i + 1) linewidth 2 pointtype 7 pointsize 0.6 title columnheader(1), \
     for [i=0:3] "demo/out/ratings.dat" index i using 1:5 with lines \
         linecolor rgb word(colors, i + 1) dashtype 2 linewidth 1.5 notitle
